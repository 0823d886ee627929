import type { Verification } from '../types.js';

const MARK = { passed: '✓', failed: '✗', skipped: '–' } as const;

/** A verification report, check by check, each with its outcome in words. */
export function Checks({ report }: { report: Verification }) {
  return (
    <>
      <p class={report.valid ? 'verdict ok' : 'verdict bad'}>{report.valid ? 'Valid: every check passed.' : `Invalid: ${report.reason ?? 'a check failed'}`}</p>
      <ol class="checks">
        {Object.entries(report.checks).map(([name, outcome]) => (
          <li key={name} class={`check-${outcome}`}>
            <span aria-hidden="true" class="check-mark">
              {MARK[outcome]}
            </span>
            <span class="check-name">{name.replace(/_/g, ' ')}</span>
            <span class="check-outcome">{outcome}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

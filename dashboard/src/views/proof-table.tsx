import { Link } from '../components/ui.js';
import { fmtDate, shortId } from '../format.js';
import { BASE } from '../router.js';
import type { ProofSummary } from '../types.js';

export function ProofTable({ proofs, caption }: { proofs: ProofSummary[]; caption: string }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Proof</th>
            <th scope="col">Task</th>
            <th scope="col">Robot</th>
            <th scope="col">Run</th>
            <th scope="col">Created</th>
            <th scope="col">Topics</th>
          </tr>
        </thead>
        <tbody>
          {proofs.map((p) => (
            <tr key={p.proof_id}>
              <th scope="row" class="mono">
                <Link href={`${BASE}proofs/${p.proof_id}`}>{shortId(p.proof_id)}</Link>
              </th>
              <td>{p.task_id}</td>
              <td>{p.robot_id ?? '—'}</td>
              <td>{p.run_id ?? '—'}</td>
              <td title={p.created_at}>{fmtDate(p.created_at)}</td>
              <td class="clip">{p.topics.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

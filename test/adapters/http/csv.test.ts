import test from 'ava';
import { csvField } from '../../../src/adapters/http/csv.js';

for (const [text, field] of [
  ['arm-1', 'arm-1'],
  ['POST /v1/proofs', 'POST /v1/proofs'],
  ['a,b', '"a,b"'],
  ['say "hi"', '"say ""hi"""'],
  ['two\nlines', '"two\nlines"'],
  ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
  ['+1', "'+1"],
  ['-2', "'-2"],
  ['@sum', "'@sum"],
  ['\tx', "'\tx"],
  ['', ''],
] as const) {
  test(`a CSV field: ${JSON.stringify(text)} is written ${JSON.stringify(field)}`, (t) => {
    t.is(csvField(text), field);
  });
}

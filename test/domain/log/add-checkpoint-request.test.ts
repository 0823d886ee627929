import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { MAX_PROOF_LINES, parseAddCheckpointRequest } from '../../../src/domain/log/add-checkpoint-request.js';
import { decodeBase64Strict } from '../../../src/domain/protocol/encoding.js';

// c2sp.org/tlog-witness, add-checkpoint: the example request body.
const PROOF = [
  'PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=',
  'jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=',
  '5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=',
  '/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=',
];
const CHECKPOINT = [
  'example.com/behind-the-sofa',
  '20852163',
  'CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=',
  '',
  '— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=',
  '— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=',
  '',
].join('\n');
const SPEC_BODY = `old 20852014\n${PROOF.join('\n')}\n\n${CHECKPOINT}`;

test("the spec's example request reads as old size 20852014, four proof hashes and the checkpoint note", (t) => {
  t.deepEqual(parseAddCheckpointRequest(SPEC_BODY), E.right({ oldSize: 20852014, proof: PROOF.map((p) => decodeBase64Strict(p)!), note: CHECKPOINT }));
});

test('old 0 with no proof lines', (t) => {
  t.deepEqual(parseAddCheckpointRequest(`old 0\n\n${CHECKPOINT}`), E.right({ oldSize: 0, proof: [], note: CHECKPOINT }));
});

const refused = (body: string): string => {
  const parsed = parseAddCheckpointRequest(body);
  return E.isLeft(parsed) ? parsed.left.problem : 'accepted';
};

test('malformed bodies are refused, saying why', (t) => {
  t.regex(refused(''), /no old size line/);
  t.regex(refused(`old 01\n\n${CHECKPOINT}`), /leading zeros/);
  t.regex(refused(`old -1\n\n${CHECKPOINT}`), /leading zeros/);
  t.regex(refused(`old  5\n\n${CHECKPOINT}`), /not a decimal/);
  t.regex(refused(`Old 5\n\n${CHECKPOINT}`), /is not "old <size>"/);
  t.regex(refused(`old 99999999999999999999\n\n${CHECKPOINT}`), /too large/);
  t.regex(refused(`old 5\n${PROOF[0]}\n\n`), /no checkpoint/);
  t.regex(refused(`old 5\n${PROOF[0]}`), /no empty line/);
  t.regex(refused(`old 5\nAAAA\n\n${CHECKPOINT}`), /line 1 is not the base64 of a 32-byte hash/);
  t.regex(refused(`old 5\n${PROOF[0]!.replace('=', '')}\n\n${CHECKPOINT}`), /not the base64/);
  t.regex(refused(`old 5\r\n\n${CHECKPOINT}`), /not a decimal/);
  t.is(refused(`old 5\n${Array(MAX_PROOF_LINES).fill(PROOF[0]).join('\n')}\n\n${CHECKPOINT}`), 'accepted');
  t.regex(
    refused(
      `old 5\n${Array(MAX_PROOF_LINES + 1)
        .fill(PROOF[0])
        .join('\n')}\n\n${CHECKPOINT}`,
    ),
    /more than 63/,
  );
});

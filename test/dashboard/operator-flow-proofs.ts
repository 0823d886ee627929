import { readFile } from 'node:fs/promises';
import test from 'ava';
import { checkPage } from '../support/browser.js';
import { anEnvelope } from '../support/mothers.js';
import type { Flow } from './operator-flow-harness.js';

/**
 * The second half of the operator flow: proofs searched and one opened (its envelope, its
 * bundle, its place in the transparency log, checked in the browser), the log on the overview,
 * the verify tool, and the key's deletion.
 */
export function proofsAndVerifyTests(label: string, flow: Flow): void {
  const { page, go, withKey, shot, wallet } = flow;

  test.serial(`${label}: proofs: every filter in the URL, kept on reload; a proof page shows its envelope as text, its checks and score`, async (t) => {
    await go('proofs', 'Proofs');
    await page().locator('tbody tr').nth(2).waitFor();
    t.is(await page().locator('tbody tr').count(), 3);
    await page().getByLabel('Robot id').fill('arm-2');
    await page().getByLabel('Order').selectOption('asc');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().waitForURL(/robot_id=arm-2/);
    t.true(page().url().includes('order=asc'));
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    await page().reload();
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    t.deepEqual(await page().locator('tbody tr td:nth-child(2)').allInnerTexts(), ['pick-43', 'sort-7']);
    await checkPage(t, flow.w, shot('proofs'));

    await page().getByLabel('Robot id').fill('');
    await page().getByLabel('Task id').fill('pick-42');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 1 && document.querySelector('tbody td')?.textContent === 'pick-42');
    await page().locator('tbody th a').click();
    await page().getByRole('heading', { level: 1, name: 'Proof of pick-42' }).waitFor();
    await page().getByText('Valid: every check passed.').waitFor();
    await page().locator('.score .stat-value').waitFor();
    const json = await page().locator('pre.json').innerText();
    t.true(json.includes('<img src=x onerror=\\"document.title=1\\">'));
    t.is(await page().locator('pre.json img').count(), 0);
    t.not(await page().title(), '1');
    t.true((await page().locator('.checks').innerText()).toLowerCase().includes('passed'));
    // Its place in the transparency log, checked by the page itself (signature and inclusion
    // proof). A checkpoint covers it about a second after acceptance; the page asks again
    // until one does, so this waits on what the page shows, not on a clock.
    const verdict = page().getByTestId('log-verdict');
    await verdict.waitFor({ timeout: 30_000 });
    const said = await verdict.innerText();
    t.regex(said, /^Included in the log at index \d+ of tree size \d+ — verified in this browser\.$/);
    const [, index, size] = /index (\d+) of tree size (\d+)/.exec(said.replace(/,/g, ''))!;
    t.true(Number(index) < Number(size));
    const stored = await flow.registry.call('GET', `/v1/proofs/${page().url().split('/').pop()}`, {
      credential: await flow.registry.signIn(wallet),
      wallet: wallet.address,
    });
    t.is(Number(index), stored.body.log_index);
    await checkPage(t, flow.w, shot('proof'));

    // The witnesses of the checkpoint it was checked against: none without a policy.
    await page().getByTestId('log-witnesses').waitFor();
    t.regex(await page().getByTestId('log-witnesses').innerText(), /^No witnesses configured/);
    // The bundle, saved with its bytes exactly as the API sends them.
    const proofId = page().url().split('/').pop()!;
    const [download] = await Promise.all([page().waitForEvent('download'), page().getByRole('button', { name: 'Download proof bundle' }).click()]);
    t.is(download.suggestedFilename(), `${proofId}.bundle.json`);
    const saved = await download.path();
    const bundle = await fetch(`${flow.registry.url}/v1/proofs/${proofId}/bundle`, {
      headers: { authorization: `Bearer ${await flow.registry.signIn(wallet)}`, 'x-wallet-address': wallet.address },
    });
    t.is(bundle.status, 200);
    const fromApi = Buffer.from(await bundle.arrayBuffer());
    t.true((await readFile(saved)).equals(fromApi));
    // Not yet in a checkpoint: the API's detail instead of the button.
    await page().route('**/v1/proofs/*/bundle', (route) =>
      route.fulfill({ status: 404, json: { detail: 'this proof is not yet in a checkpoint', code: 'not_in_log' } }),
    );
    await page().getByRole('button', { name: 'Download proof bundle' }).click();
    t.is(await page().getByTestId('bundle-not-in-log').innerText(), 'this proof is not yet in a checkpoint');
    t.is(await page().getByRole('button', { name: 'Download proof bundle' }).count(), 0);
    await page().unroute('**/v1/proofs/*/bundle');

    // The page checks what it is given rather than trusting it: an audit path with one hash
    // changed, or a checkpoint whose signed size was edited, is refused, each saying why.
    const tampered = async (change: (answer: { hashes: string[]; checkpoint: string; tree_size: number }) => void, why: RegExp) => {
      await page().route('**/v1/log/inclusion/**', async (route) => {
        const answer = await (await route.fetch()).json();
        change(answer);
        await route.fulfill({ json: answer });
      });
      await page().reload();
      await page().getByTestId('log-verdict').waitFor();
      t.regex(await page().getByTestId('log-verdict').innerText(), why);
      await page().unroute('**/v1/log/inclusion/**');
    };
    await tampered((a) => {
      if (a.hashes.length === 0) a.hashes.push('0'.repeat(64));
      else a.hashes[0] = (a.hashes[0]![0] === '0' ? '1' : '0') + a.hashes[0]!.slice(1);
    }, /^Not verified: the proof (does not lead to the root hash|has 1 hashes)/);
    await tampered((a) => {
      a.checkpoint = a.checkpoint.replace(/\n\d+\n/, `\n${a.tree_size + 1}\n`);
      a.tree_size += 1;
    }, /^Not verified: the signature by .* does not verify/);
    // No checkpoint covers it yet (404): said so, and asked again until one does.
    let refused = 0;
    await page().route('**/v1/log/inclusion/**', async (route) =>
      refused++ < 2 ? route.fulfill({ status: 404, json: { detail: 'not in the log yet', code: 'not_in_log' } }) : route.fallback(),
    );
    await page().reload();
    await page().getByText('Not in a checkpoint yet.').waitFor();
    await page()
      .getByText(/verified in this browser\.$/)
      .waitFor({ timeout: 30_000 });
    t.is(refused, 3);
    await page().unroute('**/v1/log/inclusion/**');
    // A proof the registry gave no log index (stored while its log was off) is not waited for.
    await page().route('**/v1/proofs/*', async (route) => {
      const { log_index: _, ...record } = await (await route.fetch()).json();
      await route.fulfill({ json: record });
    });
    await page().reload();
    await page().getByText('The registry gave this proof no log index').waitFor();
    t.is(await page().getByTestId('log-verdict').count(), 0);
    await page().unroute('**/v1/proofs/*');
  });

  test.serial(`${label}: the overview shows the transparency log's size and its checkpoint, checked in the browser`, async (t) => {
    await go('', 'Overview');
    const size = page().getByTestId('log-tree-size');
    await size.waitFor();
    t.true(Number((await size.innerText()).replace(/\D/g, '')) >= 1);
    const card = await page().locator('.log-facts').innerText();
    t.true(card.includes('signature verified in this browser'), card);
    t.regex(card, /[0-9a-f]{64}/);
    await checkPage(t, flow.w, shot('overview-log'));
  });

  test.serial(`${label}: the verify tool gives each pasted envelope its verdict`, async (t) => {
    await go('verify', 'Verify envelopes');
    const good = anEnvelope({ taskId: 'check-1' });
    const bad = { ...anEnvelope({ taskId: 'check-2' }), signature_b64: 'A'.repeat(88) };
    await page()
      .getByLabel(/^Envelopes/)
      .fill(JSON.stringify([good, bad]));
    await page().getByRole('button', { name: 'Verify' }).click();
    await page().getByText('2 envelopes:').waitFor();
    const verdicts = await page().locator('tbody tr td:nth-child(2)').allInnerTexts();
    t.deepEqual(
      verdicts.map((v) => v.trim().toLowerCase()),
      ['valid', 'invalid'],
    );
    await checkPage(t, flow.w, shot('verify'));
  });

  test.serial(`${label}: deleting the key asks first, with its last use and request count; the key is then refused`, async (t) => {
    await go('keys', 'API keys');
    await page().getByRole('button', { name: 'Delete the key warehouse robots' }).click();
    const dialog = page().getByRole('dialog');
    await dialog.waitFor();
    // Four calls of the walkthrough and the robot's two health reports on the device page.
    t.regex(await dialog.innerText(), /last used just now .* has made 6 requests/s);
    await checkPage(t, flow.w, shot('keys-delete-dialog'));
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await page().getByText('No API keys yet').waitFor();
    t.is((await withKey('GET', '/v1/proofs')).status, 401);
  });
}

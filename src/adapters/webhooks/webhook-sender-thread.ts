import { parentPort, workerData } from 'node:worker_threads';
import type { WebhookResponse } from '../../application/ports/webhook-transport.js';
import { NodeWebhookTransport } from './node-webhook-transport.js';
import type { SenderMessage, SenderReply, SenderThreadConfig } from './threaded-webhook-transport.js';

/**
 * The thread ThreadedWebhookTransport posts from: one NodeWebhookTransport (its kept-alive
 * connections, deadlines and address guard), answers sent back in batches, once per turn.
 */
const port = parentPort!;
const transport = new NodeWebhookTransport(workerData as SenderThreadConfig);
let answers: Array<{ id: number; response: WebhookResponse }> = [];

function answer(id: number, response: WebhookResponse): void {
  if (answers.push({ id, response }) > 1) return;
  setImmediate(() => {
    const batch = answers;
    answers = [];
    port.postMessage({ type: 'answers', answers: batch } satisfies SenderReply);
  });
}

port.on('message', (message: SenderMessage) => {
  if (message.type === 'close') {
    void transport.close().then(() => port.close());
    return;
  }
  for (const { id, request, notAfterMs } of message.posts) void transport.post(request, notAfterMs - Date.now()).then((response) => answer(id, response));
});

import test from 'ava';
import { createSignInMessageText, parseSignInMessageText, verifySignIn } from '@solana/wallet-standard-util';
import bs58 from 'bs58';
import {
  chainIdFor,
  nonceFromRandomBytes,
  parseSignInMessage,
  SIGN_IN_STATEMENT,
  signInDomain,
  signInMessageText,
  signInUri,
  type SignInMessage,
} from '../../../src/domain/identity/sign-in-message.js';
import { aWallet } from '../../support/identity.js';

const wallet = aWallet(1);
const fields: SignInMessage = {
  domain: 'registry.example.com',
  address: wallet.address,
  statement: SIGN_IN_STATEMENT,
  uri: 'https://registry.example.com',
  version: '1',
  chainId: 'mainnet',
  nonce: 'k3J9xQ2mP7vR4tW8yZ1aB5cD',
  issuedAt: '2026-11-20T10:00:00.000Z',
  expirationTime: '2026-11-20T10:05:00.000Z',
};
const text = signInMessageText(fields);

test('the message has the layout docs/identity.md gives', (t) => {
  t.is(
    text,
    [
      'registry.example.com wants you to sign in with your Solana account:',
      wallet.address,
      '',
      SIGN_IN_STATEMENT,
      '',
      'URI: https://registry.example.com',
      'Version: 1',
      'Chain ID: mainnet',
      'Nonce: k3J9xQ2mP7vR4tW8yZ1aB5cD',
      'Issued At: 2026-11-20T10:00:00.000Z',
      'Expiration Time: 2026-11-20T10:05:00.000Z',
    ].join('\n'),
  );
  t.deepEqual(parseSignInMessage(text), fields);
});

test('the Solana wallet-standard parser reads every field of our message', (t) => {
  const parsed = parseSignInMessageText(text);
  t.truthy(parsed);
  t.like(parsed, {
    domain: fields.domain,
    address: fields.address,
    statement: fields.statement,
    uri: fields.uri,
    version: '1',
    chainId: 'mainnet',
    nonce: fields.nonce,
    issuedAt: fields.issuedAt,
    expirationTime: fields.expirationTime,
  });
  // A wallet re-creates the text it shows and signs from the parsed fields: it must be ours.
  t.is(createSignInMessageText(parsed!), text);
});

test('a wallet-standard signIn over our fields verifies as the same signed text', (t) => {
  const parsed = parseSignInMessageText(text)!;
  const signedMessage = new TextEncoder().encode(text);
  const signature = Uint8Array.from(Buffer.from(wallet.sign(text), 'base64'));
  const output = { account: { address: wallet.address, publicKey: bs58.decode(wallet.address), chains: [], features: [] }, signedMessage, signature };
  t.true(verifySignIn(parsed, output as never));
  t.false(verifySignIn({ ...parsed, nonce: 'AAAAAAAAAAAAAAAAAAAAAAAA' }, output as never));
});

const refused: Array<[string, string]> = [
  ['a trailing newline', text + '\n'],
  ['a missing field', text.replace(/\nChain ID: mainnet/, '')],
  ['fields out of order', text.replace('Version: 1\nChain ID: mainnet', 'Chain ID: mainnet\nVersion: 1')],
  ['another version', text.replace('Version: 1', 'Version: 2')],
  ['a short nonce', text.replace(fields.nonce, 'abc123')],
  ['a non-alphanumeric nonce', text.replace(fields.nonce, 'k3J9xQ2mP7vR4tW8yZ1aB5c-')],
  ['an extra Resources section', text + '\nResources:\n- https://evil.example'],
  ['CRLF line ends', text.replace(/\n/g, '\r\n')],
  ['empty', ''],
];
for (const [name, message] of refused) {
  test(`parse refuses ${name}`, (t) => t.is(parseSignInMessage(message), null));
}

test('nonces are 24 alphanumerics, unbiased bytes only', (t) => {
  const bytes = Uint8Array.from({ length: 48 }, (_, i) => (i * 37) & 0xff);
  const nonce = nonceFromRandomBytes(bytes);
  t.regex(nonce!, /^[A-Za-z0-9]{24}$/);
  // Bytes ≥ 248 would favour the first letters; they are skipped, so 24 of them give nothing.
  t.is(nonceFromRandomBytes(new Uint8Array(48).fill(250)), null);
  t.is(nonceFromRandomBytes(new Uint8Array(10)), null);
});

test('domain and URI come from the public origin', (t) => {
  t.is(signInDomain('http://localhost:8080'), 'localhost:8080');
  t.is(signInDomain('https://registry.example.com:443/'), 'registry.example.com');
  t.is(signInUri('https://registry.example.com/path'), 'https://registry.example.com');
});

test('the chain id follows the RPC endpoint', (t) => {
  t.is(chainIdFor(null), 'localnet');
  t.is(chainIdFor('https://api.devnet.solana.com'), 'devnet');
  t.is(chainIdFor('https://api.testnet.solana.com'), 'testnet');
  t.is(chainIdFor('https://api.mainnet-beta.solana.com'), 'mainnet');
});

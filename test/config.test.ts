import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.js';

test('defaults: writer thread on, API keys kept in memory for 5 s', (t) => {
  const config = loadConfig({});
  t.true(config.writerThread);
  t.is(config.apiKeyCacheTtlS, 5);
});

test('WRITER_THREAD takes the usual spellings of true and false', (t) => {
  for (const on of ['true', '1', 'on', 'yes', 'TRUE']) t.true(loadConfig({ WRITER_THREAD: on }).writerThread, on);
  for (const off of ['false', '0', 'off', 'no', 'False']) t.false(loadConfig({ WRITER_THREAD: off }).writerThread, off);
});

test('a bad WRITER_THREAD or API_KEY_CACHE_TTL_S stops the start with a message naming it', (t) => {
  const error = t.throws(() => loadConfig({ WRITER_THREAD: 'maybe', API_KEY_CACHE_TTL_S: '-1' }), { instanceOf: ConfigError });
  t.deepEqual(error?.problems, ['API_KEY_CACHE_TTL_S must be an integer from 0 to 3600 (got "-1")', 'WRITER_THREAD must be true or false (got "maybe")']);
});

test('API_KEY_CACHE_TTL_S of 0 turns the key cache off', (t) => {
  t.is(loadConfig({ API_KEY_CACHE_TTL_S: '0' }).apiKeyCacheTtlS, 0);
});

test('ACCESS_TOKEN_MINT must be a base58 Solana address', (t) => {
  const error = t.throws(() => loadConfig({ ACCESS_TOKEN_MINT: 'abc' }), { instanceOf: ConfigError });
  t.regex(error!.message, /ACCESS_TOKEN_MINT must be a base58 Solana address \(got "abc"\)/);
  t.is(loadConfig({ ACCESS_TOKEN_MINT: 'So11111111111111111111111111111111111111112' }).accessTokenMint, 'So11111111111111111111111111111111111111112');
});

test('HELPER_THREAD_NICE: unset leaves it to the machine, else 0 to 19, anything else named', (t) => {
  t.is(loadConfig({}).helperThreadNice, null);
  t.is(loadConfig({ HELPER_THREAD_NICE: '' }).helperThreadNice, null);
  t.is(loadConfig({ HELPER_THREAD_NICE: '0' }).helperThreadNice, 0);
  t.is(loadConfig({ HELPER_THREAD_NICE: '19' }).helperThreadNice, 19);
  for (const bad of ['20', '-1', 'low']) {
    const error = t.throws(() => loadConfig({ HELPER_THREAD_NICE: bad }), { instanceOf: ConfigError });
    t.deepEqual(error?.problems, [`HELPER_THREAD_NICE must be an integer from 0 to 19 (got "${bad}")`]);
  }
});

test('connection deadlines and caps: defaults, and a request deadline shorter than the header deadline is refused', (t) => {
  const config = loadConfig({});
  t.like(config, { headersTimeoutS: 10, requestTimeoutS: 60, keepAliveTimeoutS: 65, maxConnections: 4096, maxConnectionsPerIp: 256 });
  t.is(loadConfig({ MAX_CONNECTIONS_PER_IP: '0' }).maxConnectionsPerIp, 0, '0 turns the per-address cap off');
  const error = t.throws(() => loadConfig({ HEADERS_TIMEOUT_S: '30', REQUEST_TIMEOUT_S: '20' }), { instanceOf: ConfigError });
  t.regex(error.message, /REQUEST_TIMEOUT_S must not be shorter than HEADERS_TIMEOUT_S/);
  t.throws(() => loadConfig({ MAX_CONNECTIONS: '0' }), { message: /MAX_CONNECTIONS must be an integer from 1/ });
});

test('TRUST_PROXY is a number of proxies: true is one, false none', (t) => {
  t.is(loadConfig({}).trustProxy, 0);
  t.is(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, 1);
  t.is(loadConfig({ TRUST_PROXY: '1' }).trustProxy, 1);
  t.is(loadConfig({ TRUST_PROXY: '3' }).trustProxy, 3);
  t.is(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, 0);
  t.throws(() => loadConfig({ TRUST_PROXY: 'yes please' }), { message: /TRUST_PROXY must be true, false or a number of proxies/ });
  t.throws(() => loadConfig({ TRUST_PROXY: '17' }), { message: /TRUST_PROXY/ });
});

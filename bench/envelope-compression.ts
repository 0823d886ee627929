import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { fleetProof } from './fleet-proofs.js';
import { scaleProof } from './scale-data.js';

/**
 * `npx tsx bench/envelope-compression.ts`: would compressing the stored envelope text pay?
 * On samples of stored envelopes (the scale bench's, about 0.8 KB, and the submission bench's,
 * about 2.5 KB) it reports the bytes an envelope would take compressed with each method and
 * the CPU time of compressing (each write) and decompressing (each read of a whole proof), on
 * one thread. Every method is lossless: each text is checked to come back byte for byte. The
 * dictionary methods prime the compressor with one typical envelope, kept with the code.
 */
const SAMPLE = Number(process.env.SAMPLE ?? 2_000);

function measure(name: string, texts: readonly string[], compress: (b: Buffer) => Buffer, decompress: (b: Buffer) => Buffer): string {
  const inputs = texts.map((t) => Buffer.from(t, 'utf8'));
  const before = inputs.reduce((sum, b) => sum + b.length, 0);
  // A first pass unmeasured, so that the figures are of warmed-up code.
  inputs.slice(0, 200).forEach((b) => decompress(compress(b)));
  // CPU time, not elapsed time: on a busy machine the process waits for a core in between.
  const cpuUs = (since: NodeJS.CpuUsage) => ((u) => u.user + u.system)(process.cpuUsage(since));
  let start = process.cpuUsage();
  const packed = inputs.map(compress);
  const compressUs = cpuUs(start) / inputs.length;
  start = process.cpuUsage();
  const unpacked = packed.map(decompress);
  const decompressUs = cpuUs(start) / inputs.length;
  unpacked.forEach((b, i) => {
    if (!b.equals(inputs[i]!)) throw new Error(`${name}: text ${i} did not come back unchanged`);
  });
  const after = packed.reduce((sum, b) => sum + b.length, 0);
  return `| ${name} | ${Math.round(before / inputs.length)} | ${Math.round(after / inputs.length)} | ${Math.round((100 * after) / before)}% | ${compressUs.toFixed(1)} | ${decompressUs.toFixed(1)} |`;
}

const samples: Array<[string, string[]]> = [
  ['scale bench envelopes', Array.from({ length: SAMPLE }, (_, i) => JSON.stringify(scaleProof(i * 4_999, 10_000_000).envelope))],
  ['submission bench envelopes', Array.from({ length: SAMPLE }, () => JSON.stringify(fleetProof('compression')))],
];
for (const [label, texts] of samples) {
  // The dictionary: one envelope of the same kind that is not in the sample.
  const dictionary = Buffer.from(label.startsWith('scale') ? JSON.stringify(scaleProof(7, 10_000_000).envelope) : JSON.stringify(fleetProof('dictionary')));
  const brotli = (quality: number) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
  console.log(`\n| ${label}, ${SAMPLE} | bytes | compressed | share | compress µs | decompress µs |\n| --- | ---: | ---: | ---: | ---: | ---: |`);
  console.log(
    measure(
      'deflate, level 1',
      texts,
      (b) => deflateRawSync(b, { level: 1 }),
      (b) => inflateRawSync(b),
    ),
  );
  console.log(
    measure(
      'deflate, level 6',
      texts,
      (b) => deflateRawSync(b, { level: 6 }),
      (b) => inflateRawSync(b),
    ),
  );
  console.log(
    measure(
      'deflate, level 6, dictionary',
      texts,
      (b) => deflateRawSync(b, { level: 6, dictionary }),
      (b) => inflateRawSync(b, { dictionary }),
    ),
  );
  console.log(
    measure(
      'brotli, quality 4',
      texts,
      (b) => brotliCompressSync(b, brotli(4)),
      (b) => brotliDecompressSync(b),
    ),
  );
  console.log(
    measure(
      'brotli, quality 11',
      texts,
      (b) => brotliCompressSync(b, brotli(11)),
      (b) => brotliDecompressSync(b),
    ),
  );
}

import { credentialHeaders, refusal } from './api.js';

/**
 * Fetches `path` with the session and saves the answer as a file, under the name its
 * Content-Disposition gives (else `fallbackName`), through an object URL and an <a download>:
 * the page's CSP allows no inline script.
 */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await fetch(path, { headers: credentialHeaders(), cache: 'no-store' });
  if (!res.ok) throw await refusal(res);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

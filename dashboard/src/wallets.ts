import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';

/** A wallet the page can sign in with: it connects, and signs a message with a Solana account. */
export interface Signer {
  readonly name: string;
  readonly icon: string | null;
  /** Connects (the wallet may ask its user), then signs `message` with the connected account. */
  connectAndSign(getMessage: (address: string) => Promise<Uint8Array>): Promise<{ address: string; signature: Uint8Array }>;
}

type ConnectFeature = { connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }> };
type SignMessageFeature = {
  signMessage(...inputs: Array<{ account: WalletAccount; message: Uint8Array }>): Promise<ReadonlyArray<{ signedMessage: Uint8Array; signature: Uint8Array }>>;
};

const CONNECT = 'standard:connect';
const SIGN = 'solana:signMessage';

/** The wallet declined (its user said no): not an error of ours, and nothing was signed. */
export class Declined extends Error {}

/** The wallet returned something other than a signature over exactly the message asked for. */
export class WrongSignature extends Error {}

const usable = (w: Wallet) => CONNECT in w.features && SIGN in w.features;

function declined(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  return e?.code === 4001 || e?.name === 'WalletSignMessageError' || /reject|declin|denied|cancel/i.test(String(e?.message ?? ''));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function toSigner(w: Wallet): Signer {
  return {
    name: w.name,
    icon: typeof w.icon === 'string' && w.icon.startsWith('data:image/') ? w.icon : null,
    async connectAndSign(getMessage) {
      const connect = w.features[CONNECT] as ConnectFeature;
      const sign = w.features[SIGN] as SignMessageFeature;
      let account: WalletAccount | undefined;
      try {
        account = (await connect.connect()).accounts.find((a) => a.features.includes(SIGN)) ?? w.accounts[0];
      } catch (err) {
        throw declined(err) ? new Declined('connect') : err;
      }
      if (!account) throw new Error(`${w.name} connected no Solana account`);
      const message = await getMessage(account.address);
      let out;
      try {
        [out] = await sign.signMessage({ account, message });
      } catch (err) {
        throw declined(err) ? new Declined('sign') : err;
      }
      // A wallet may sign a different text than the one shown (a prefix, a rewording): the
      // service would refuse it, and the user must know they signed something else.
      if (!out || !sameBytes(out.signedMessage, message)) throw new WrongSignature(`${w.name} signed a different message than the sign-in challenge`);
      if (out.signature.length !== 64) throw new WrongSignature(`${w.name} returned a signature of ${out.signature.length} bytes, not 64`);
      return { address: account.address, signature: out.signature };
    },
  };
}

/** Wallets registered through the Wallet Standard (Phantom, Solflare, Backpack, …), now and as they arrive. */
export function watchWallets(onChange: (signers: Signer[]) => void): () => void {
  const { get, on } = getWallets();
  const emit = () => onChange(get().filter(usable).map(toSigner));
  emit();
  const offRegister = on('register', emit);
  const offUnregister = on('unregister', emit);
  return () => {
    offRegister();
    offUnregister();
  };
}

/**
 * Why an inclusion or consistency proof does not hold. Each failure names what a verifier
 * found, so a monitor can say precisely what the log got wrong.
 */
export type LogProofFailure =
  | { readonly _tag: 'LeafIndexBeyondTree'; readonly leafIndex: number; readonly treeSize: number }
  | { readonly _tag: 'TreeSizesInvalid'; readonly first: number; readonly second: number }
  | { readonly _tag: 'ProofLengthWrong'; readonly expected: number; readonly actual: number }
  | { readonly _tag: 'MalformedHash'; readonly what: string; readonly length: number }
  | { readonly _tag: 'RootMismatch'; readonly which: 'root' | 'first' | 'second' };

export function describeLogProofFailure(failure: LogProofFailure): string {
  switch (failure._tag) {
    case 'LeafIndexBeyondTree':
      return `leaf index ${failure.leafIndex} is not in a tree of size ${failure.treeSize}`;
    case 'TreeSizesInvalid':
      return `no consistency proof exists from tree size ${failure.first} to ${failure.second}: it needs 0 < first ≤ second`;
    case 'ProofLengthWrong':
      return `the proof has ${failure.actual} hashes; these sizes need ${failure.expected}`;
    case 'MalformedHash':
      return `${failure.what} is ${failure.length} bytes; a SHA-256 hash is 32`;
    case 'RootMismatch':
      return failure.which === 'root'
        ? 'the proof does not lead to the root hash: the leaf is not in this tree'
        : `the proof does not lead to the ${failure.which} root hash: the two trees are not consistent`;
  }
}

/**
 * Why a signed note, a verifier key or a checkpoint is not accepted (C2SP signed-note and
 * tlog-checkpoint). `NoSignatureByKey` covers an unknown key and a signature whose key name
 * or key id was changed: the note may be genuine, but nothing vouches for it.
 */
export type NoteFailure =
  | { readonly _tag: 'MalformedVerifierKey'; readonly problem: string }
  | { readonly _tag: 'MalformedNote'; readonly problem: string }
  | { readonly _tag: 'NoSignatureByKey'; readonly keyName: string; readonly keyId: string }
  | { readonly _tag: 'SignatureInvalid'; readonly keyName: string; readonly keyId: string }
  | { readonly _tag: 'MalformedCheckpoint'; readonly problem: string }
  | { readonly _tag: 'OriginMismatch'; readonly expected: string; readonly actual: string };

export function describeNoteFailure(failure: NoteFailure): string {
  switch (failure._tag) {
    case 'MalformedVerifierKey':
      return `verifier key: ${failure.problem}`;
    case 'MalformedNote':
      return `signed note: ${failure.problem}`;
    case 'NoSignatureByKey':
      return `the note carries no signature by ${failure.keyName}+${failure.keyId}`;
    case 'SignatureInvalid':
      return `the signature by ${failure.keyName}+${failure.keyId} does not verify: the note was changed or not signed by this key`;
    case 'MalformedCheckpoint':
      return `checkpoint: ${failure.problem}`;
    case 'OriginMismatch':
      return `the checkpoint is for log ${JSON.stringify(failure.actual)}, not ${JSON.stringify(failure.expected)}`;
  }
}

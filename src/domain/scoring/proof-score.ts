/** The result of scoring one proof under a named, versioned policy. */
export interface ProofScore {
  /** Weighted sum of the components, in [0, 1]. */
  readonly score: number;
  /** Each component in [0, 1], by name. */
  readonly components: Readonly<Record<string, number>>;
  /** One sentence per component explaining its value, by the same names. */
  readonly reasons: Readonly<Record<string, string>>;
  /** Policy name and version, e.g. "registry-default/1". */
  readonly policy: string;
}

/** A failure tag as a metrics label: `ChallengeAlreadyUsed` → `challenge_already_used`. */
export const failureReason = (tag: string): string => tag.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** Minting claim ids: stable, random, never reused. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new claim id such as `clm_7Qm2xK9pT4aB` (12 random base-62 characters). */
export function mintClaimId(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(12));
  let id = 'clm_';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

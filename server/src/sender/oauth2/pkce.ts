/**
 * The one-time values of an authorization code sign-in: the PKCE verifier and its S256
 * challenge (RFC 7636), and the state that ties the answer to the request lpreq made.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes as base64url: 43 characters, the shortest verifier RFC 7636 allows, with 256 bits of chance. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 challenge of a verifier: BASE64URL(SHA-256(verifier)). */
export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether a state that came back is the one sent, compared in constant time. */
export function sameState(sent: string, received: string | null | undefined): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

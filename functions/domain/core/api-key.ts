/**
 * @module core/api-key
 * API keys have the form `ll_<keyId>_<secret>`: the key id locates the record, the secret proves
 * possession. Only a SHA-256 hash of the secret is stored. A slow password hash is unnecessary
 * because secrets are 256 random bits, not human-chosen; comparison is constant-time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of every key; makes leaked keys greppable by secret scanners. */
export const API_KEY_PREFIX = 'll';

const KEY_ID_PATTERN = /^[a-f0-9]{16}$/;
const SECRET_PATTERN = /^[a-f0-9]{64}$/;

/** A freshly generated key: `token` is shown to the user once and never stored. */
export interface GeneratedApiKey {
  readonly keyId: string;
  readonly secret: string;
  readonly token: string;
}

/** Generates a new random key. */
export const generateApiKey = (): GeneratedApiKey => {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  return { keyId, secret, token: `${API_KEY_PREFIX}_${keyId}_${secret}` };
};

/** Splits a token into its parts, or returns undefined when it is not a well-formed key. */
export const parseApiKey = (token: string): { keyId: string; secret: string } | undefined => {
  const parts = token.split('_');
  if (parts.length !== 3 || parts[0] !== API_KEY_PREFIX) return undefined;
  const [, keyId, secret] = parts as [string, string, string];
  if (!KEY_ID_PATTERN.test(keyId) || !SECRET_PATTERN.test(secret)) return undefined;
  return { keyId, secret };
};

/** The stored form of a secret. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time check of a presented secret against a stored hash. */
export const secretMatches = (secret: string, storedHash: string): boolean => {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
};

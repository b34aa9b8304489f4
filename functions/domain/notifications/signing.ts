/**
 * @module notifications/signing
 * Signs a delivery the way the Standard Webhooks specification says, with its reference library
 * (`standardwebhooks`): `webhook-id` (the delivery's id, the same on every attempt),
 * `webhook-timestamp` (the attempt's time, in seconds) and `webhook-signature` (`v1,` + base64
 * HMAC-SHA256 of `id.timestamp.body` under the destination's secret).
 */
import { Webhook } from 'standardwebhooks';

/** The three headers of a signed delivery, and the body's type. */
export const signedHeaders = (secret: string, deliveryId: string, at: Date, body: string): Record<string, string> => ({
  'content-type': 'application/json',
  'webhook-id': deliveryId,
  'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
  'webhook-signature': new Webhook(secret).sign(deliveryId, at, body),
});

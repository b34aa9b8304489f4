/**
 * @module sqs-mapping
 * Lambda's event source mapping from a feed subscriber's SQS FIFO queue to its function, played by
 * this process (the emulator runs no functions): it receives up to 10 messages from the emulator's
 * queue, hands them to the handler as an `SQSEvent`, deletes the ones the answer does not name in
 * `batchItemFailures` and makes the named ones visible again at once (Lambda would wait out the
 * visibility timeout). What it does not play — the receive count and the redrive to the
 * dead-letter queue — stays asserted in the template only.
 */
import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/** One invocation: the messages handed over and the ones reported failed. */
export interface SqsDelivery {
  readonly messageIds: string[];
  readonly failed: string[];
}

/** Delivers what the queue holds now, batch by batch, until a receive comes back empty. */
export const drainQueue = async (sqs: SQSClient, queueUrl: string, queueArn: string, handler: (event: SQSEvent) => Promise<SQSBatchResponse | unknown>): Promise<SqsDelivery[]> => {
  const deliveries: SqsDelivery[] = [];
  for (;;) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['All'], VisibilityTimeout: 30 }));
    const messages = out.Messages ?? [];
    if (messages.length === 0) return deliveries;
    const records = messages.map(
      (m): SQSRecord => ({
        messageId: m.MessageId as string,
        receiptHandle: m.ReceiptHandle as string,
        body: m.Body as string,
        attributes: m.Attributes as unknown as SQSRecord['attributes'],
        messageAttributes: {},
        md5OfBody: m.MD5OfBody as string,
        eventSource: 'aws:sqs',
        eventSourceARN: queueArn,
        awsRegion: 'us-east-1',
      }),
    );
    const answer = (await handler({ Records: records })) as SQSBatchResponse | undefined;
    const failed = (answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
    const done = messages.filter((m) => !failed.includes(m.MessageId as string));
    if (done.length > 0) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle as string })) }));
    const again = messages.filter((m) => failed.includes(m.MessageId as string));
    if (again.length > 0) await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: again.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle as string, VisibilityTimeout: 0 })) }));
    deliveries.push({ messageIds: messages.map((m) => m.MessageId as string), failed });
    // A reported message is visible again at once; stop rather than loop on it (the caller drains again).
    if (failed.length > 0) return deliveries;
  }
};

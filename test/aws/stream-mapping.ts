/**
 * @module stream-mapping
 * Lambda's event source mapping from the Events table's DynamoDB stream to the lineage model's
 * consumer, played by this process, since the emulator does not connect its streams to a function
 * it cannot run. It reads the stream through the emulator's DynamoDB Streams API (`DescribeStream`,
 * `GetShardIterator`, `GetRecords`) — the records are the ones the emulator wrote for the table's
 * real writes, never built here — and does what the mapping in lib/lineage-graph.ts asks of Lambda:
 * the INSERT filter, batches of up to 100 records in stream order, each record given the stream's
 * `eventSourceARN`, and with `reportBatchItemFailures` a batch whose answer names failed records is
 * retried from the lowest of them (Lambda bisects at that sequence number and retries the rest).
 * What it does not play — bisection after a function error, the retry count, the record age limit
 * and the SQS on-failure destination — stays asserted in the template only.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { awsClientConfig, type AwsEmulatorInfo } from './emulator.ts';

/** The mapping's batch size (lib/lineage-graph.ts). */
const BATCH_SIZE = 100;

/** One delivery of a batch to the function, and what it answered. */
export interface Delivery {
  readonly sequenceNumbers: readonly string[];
  readonly failed: readonly string[];
}

/** A record as the DynamoDB Streams API returns it (Lambda adds the stream's ARN). */
type StreamsApiRecord = Omit<DynamoDBRecord, 'eventSourceARN' | 'dynamodb'> & { dynamodb: Omit<NonNullable<DynamoDBRecord['dynamodb']>, 'ApproximateCreationDateTime'> & { ApproximateCreationDateTime?: number | string } };

/** The mapping of one table's stream to a handler. */
export class StreamMappingStandIn {
  private iterator: string | undefined;
  private streamArn = '';
  private shardId = '';

  private constructor(
    private readonly aws: AwsEmulatorInfo,
    private readonly handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>,
  ) {}

  /** A mapping that starts at the stream's oldest record (the mapping's `TRIM_HORIZON`). */
  static async open(aws: AwsEmulatorInfo, tableName: string, handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>): Promise<StreamMappingStandIn> {
    const mapping = new StreamMappingStandIn(aws, handler);
    const dynamo = new DynamoDBClient(awsClientConfig(aws));
    try {
      const table = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
      if (!table.Table?.LatestStreamArn) throw new Error(`table ${tableName} has no stream`);
      mapping.streamArn = table.Table.LatestStreamArn;
    } finally {
      dynamo.destroy();
    }
    const stream = (await mapping.call('DescribeStream', { StreamArn: mapping.streamArn })) as { StreamDescription: { Shards: { ShardId: string }[] } };
    mapping.shardId = stream.StreamDescription.Shards[0]?.ShardId ?? '';
    await mapping.seek('TRIM_HORIZON');
    return mapping;
  }

  /** One call of the DynamoDB Streams API (JSON protocol; the emulator accepts any signature). */
  private async call(action: string, body: Record<string, unknown>): Promise<unknown> {
    const response = await fetch(this.aws.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDBStreams_20120810.${action}`,
        // DynamoDB Streams signs as `dynamodb`; the target tells the emulator it is the streams API.
        authorization: `AWS4-HMAC-SHA256 Credential=${this.aws.credentials.accessKeyId}/20260101/${this.aws.region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`DynamoDB Streams ${action}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as unknown;
  }

  private async seek(type: 'TRIM_HORIZON' | 'AT_SEQUENCE_NUMBER', sequenceNumber?: string): Promise<void> {
    const out = (await this.call('GetShardIterator', { StreamArn: this.streamArn, ShardId: this.shardId, ShardIteratorType: type, ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}) })) as { ShardIterator: string };
    this.iterator = out.ShardIterator;
  }

  /** The record as Lambda hands it to the function: the stream's ARN added, the time in epoch seconds. */
  private asLambdaRecord(record: StreamsApiRecord): DynamoDBRecord {
    const { ApproximateCreationDateTime: at, ...rest } = record.dynamodb;
    return {
      ...record,
      dynamodb: { ...rest, ...(at === undefined ? {} : { ApproximateCreationDateTime: typeof at === 'number' ? at : Date.parse(at) / 1000 }) },
      eventSourceARN: this.streamArn,
    };
  }

  /**
   * Delivers what the stream holds past the checkpoint, batch by batch, until it is read to its
   * end or a batch fails; a failed batch moves the checkpoint to its lowest failed record, so the
   * next call retries from there (as Lambda would, after its back-off).
   */
  async drain(): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    for (;;) {
      const page = (await this.call('GetRecords', { ShardIterator: this.iterator, Limit: BATCH_SIZE })) as { Records: StreamsApiRecord[]; NextShardIterator: string };
      if (page.Records.length === 0) return deliveries;
      // The mapping's filter (`eventName` = INSERT): other records are dropped, as if processed.
      const batch = page.Records.filter((r) => r.eventName === 'INSERT').map((r) => this.asLambdaRecord(r));
      const answer = batch.length > 0 ? await this.handler({ Records: batch }) : undefined;
      const failed = (answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      deliveries.push({ sequenceNumbers: batch.map((r) => r.dynamodb?.SequenceNumber ?? ''), failed });
      if (failed.length > 0) {
        const lowest = failed.reduce((a, b) => (BigInt(a) <= BigInt(b) ? a : b));
        await this.seek('AT_SEQUENCE_NUMBER', lowest);
        return deliveries;
      }
      this.iterator = page.NextShardIterator;
    }
  }
}

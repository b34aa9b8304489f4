/**
 * @module lakeline-stack
 * `LakelineStack`: composes the service from its constructs (state, then the API over it) and
 * holds no resources of its own.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { LakelineApi, type LakelineApiProps } from './api.ts';
import { LakelineData, type LakelineDataProps } from './data.ts';

/** Properties of {@link LakelineStack}. */
export interface LakelineStackProps extends StackProps {
  /** Passed to {@link LakelineData}. @default - its defaults */
  readonly data?: LakelineDataProps;
  /** Passed to {@link LakelineApi} (everything but `data`). @default - its defaults */
  readonly api?: Omit<LakelineApiProps, 'data'>;
}

/** The whole service in one stack. */
export class LakelineStack extends Stack {
  public readonly data: LakelineData;
  public readonly api: LakelineApi;

  constructor(scope: Construct, id: string, props: LakelineStackProps = {}) {
    super(scope, id, props);
    this.data = new LakelineData(this, 'Data', props.data);
    this.api = new LakelineApi(this, 'Api', { ...props.api, data: this.data });
  }
}

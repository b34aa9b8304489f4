/**
 * @module spark-submit-args
 * How a Spark request becomes a local `spark-submit`: the machine-type request scaled down to this
 * machine (one JVM runs the driver and the executor threads, `local[N]`), and the command line and
 * environment of the child process. Pure functions, so the sizing rules are unit-tested.
 */
import { requestedVcpus, type SparkResourceRequest } from '#domain/core/machine-types';
import type { ComputeUsed } from '#domain/runs/run';

/** What this machine offers and what one run may take of it. */
export interface LocalCapacity {
  readonly cores: number;
  readonly memoryMb: number;
  /** Most cores per run (default: all). */
  readonly maxCores?: number;
  /** Largest heap per run in MB (default: half the machine's memory). */
  readonly maxMemoryMb?: number;
}

/** The smallest heap a run gets, whatever it asked for: Spark's own default. */
const MIN_HEAP_MB = 1024;

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Sizes a request for this machine. The executors' cores become `local[N]` task slots, capped by
 * the machine (and `maxCores`); driver and executor memory together become the one JVM's heap,
 * capped at `maxMemoryMb` (default half the machine). The request, the result and whether it was
 * scaled down are all recorded on the run.
 */
export const localCompute = (request: SparkResourceRequest, capacity: LocalCapacity): ComputeUsed => {
  const wantedCores = request.executor.vcpus * request.executors;
  const coreCap = Math.max(1, Math.min(capacity.cores, capacity.maxCores ?? capacity.cores));
  const cores = Math.max(1, Math.min(wantedCores, coreCap));
  const wantedMb = (request.driver.memoryGb + request.executor.memoryGb * request.executors) * 1024;
  const memoryCap = capacity.maxMemoryMb ?? Math.floor(capacity.memoryMb / 2);
  const heapMb = Math.max(MIN_HEAP_MB, Math.min(wantedMb, memoryCap));
  const scaledDown = cores < wantedCores || heapMb < wantedMb;
  return {
    requested: { driverMachineType: request.driver.name, executorMachineType: request.executor.name, executors: request.executors },
    platform: 'local',
    driver: { vcpus: cores, memoryGb: round2(heapMb / 1024) },
    executor: { vcpus: 0, memoryGb: 0 },
    executors: 0,
    billedVcpus: cores,
    scaledDown,
    sparkConf: {
      'spark.master': `local[${cores}]`,
      'spark.driver.memory': `${heapMb}m`,
      // Spark's 200 shuffle partitions are sized for clusters; a few per core keeps tasks busy here.
      'spark.sql.shuffle.partitions': String(Math.max(4, cores * 4)),
    },
    note: `Local profile: one JVM runs the driver and the executors as local[${cores}] task threads with a ${heapMb} MB heap${
      scaledDown ? `, scaled down from ${requestedVcpus(request)} vCPUs and ${wantedMb / 1024} GB to this machine (${capacity.cores} cores, ${round2(capacity.memoryMb / 1024)} GB)` : ''
    }.`,
  };
};

/** Paths of one local Spark installation and run. */
export interface SubmitPaths {
  readonly sparkHome: string;
  readonly pythonBin: string;
  readonly jars: readonly string[];
  readonly jobScript: string;
  /** The run's own directory: spec, result, driver log, scratch. */
  readonly runDir: string;
  readonly specFile: string;
}

/** The `spark-submit` command line of a run. */
export const sparkSubmitArgs = (runId: string, compute: ComputeUsed, paths: SubmitPaths): string[] => {
  const scratch = `${paths.runDir}/tmp`;
  const conf: Record<string, string> = {
    ...compute.sparkConf,
    'spark.ui.enabled': 'false',
    'spark.driver.host': '127.0.0.1',
    'spark.driver.bindAddress': '127.0.0.1',
    'spark.local.dir': scratch,
    // Spark's own warehouse and Derby would otherwise land in the working directory.
    'spark.sql.warehouse.dir': `${scratch}/spark-warehouse`,
    'spark.driver.extraJavaOptions': `-Djava.io.tmpdir=${scratch} -Dderby.system.home=${scratch}`,
  };
  const master = conf['spark.master'] as string;
  const memory = conf['spark.driver.memory'] as string;
  delete conf['spark.master'];
  delete conf['spark.driver.memory'];
  return [
    '--master',
    master,
    '--driver-memory',
    memory,
    '--name',
    `lakeline-${runId}`,
    '--jars',
    paths.jars.join(','),
    ...Object.entries(conf).flatMap(([k, v]) => ['--conf', `${k}=${v}`]),
    paths.jobScript,
    '--spec',
    paths.specFile,
  ];
};

/**
 * The settings of the warm driver (`jobs/spark/warm_driver.py`, ADR 0059), as its `--conf`
 * arguments: the same as a run's, with the master, heap and jars as settings, since PySpark starts
 * that JVM itself.
 */
export const warmDriverArgs = (compute: ComputeUsed, paths: Omit<SubmitPaths, 'specFile'>): string[] => {
  const submit = sparkSubmitArgs('warm', compute, { ...paths, specFile: '' });
  const conf: Record<string, string> = {
    'spark.master': submit[submit.indexOf('--master') + 1] as string,
    'spark.driver.memory': submit[submit.indexOf('--driver-memory') + 1] as string,
    'spark.jars': paths.jars.join(','),
  };
  submit.forEach((arg, i) => {
    if (arg !== '--conf') return;
    const [key, ...value] = (submit[i + 1] as string).split('=');
    conf[key as string] = value.join('=');
  });
  return [paths.jobScript, ...Object.entries(conf).flatMap(([k, v]) => ['--conf', `${k}=${v}`])];
};

/**
 * The child's environment: only what Java, Spark and Python need. The service's own settings
 * (its session secret, store endpoints) never reach the process that runs user SQL.
 */
export const sparkSubmitEnv = (paths: SubmitPaths, parent: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const keep = ['PATH', 'HOME', 'JAVA_HOME', 'LANG', 'LC_ALL', 'TZ'];
  return {
    ...Object.fromEntries(keep.flatMap((k) => (parent[k] ? [[k, parent[k] as string]] : []))),
    SPARK_HOME: paths.sparkHome,
    PYSPARK_PYTHON: paths.pythonBin,
    PYSPARK_DRIVER_PYTHON: paths.pythonBin,
    SPARK_LOCAL_IP: '127.0.0.1',
    TMPDIR: `${paths.runDir}/tmp`,
  };
};

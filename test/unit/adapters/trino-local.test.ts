/**
 * The local Trino server's pieces that need no server: its configuration (loopback only, small on
 * a shared 2-core machine, dynamic in-memory catalogs, file-based access control per org), the JDK search (24+, newest first, the
 * override), and the `CREATE CATALOG` of an org (its own JDBC catalog name and warehouse, quoted).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalogSql } from '#adapters/trino/bloom-engine';
import { findTrinoJava, javaFeatureVersion } from '#adapters/trino/java';
import { catalogRules, trinoConfigFiles } from '#adapters/trino/server';

const fakeJdk = (root: string, name: string, version: string): string => {
  const home = path.join(root, name);
  mkdirSync(path.join(home, 'bin'), { recursive: true });
  writeFileSync(path.join(home, 'bin', 'java'), '');
  writeFileSync(path.join(home, 'release'), `IMPLEMENTOR="x"\nJAVA_VERSION="${version}"\n`);
  return home;
};

describe('local Trino configuration', () => {
  it('Should listen on loopback only, keep memory inside the heap, and manage catalogs dynamically in memory', () => {
    // Act
    const files = trinoConfigFiles(18080, '/home/x/trino', 2048);

    // Assess
    expect(files['node.properties']).toContain('node.bind-ip=127.0.0.1');
    expect(files['config.properties']).toContain('http-server.http.port=18080');
    expect(files['config.properties']).toContain('query.max-memory-per-node=1024MB');
    expect(files['config.properties']).toContain('task.concurrency=2');
    expect(files['config.properties']).toContain('catalog.management=dynamic');
    expect(files['config.properties']).toContain('catalog.store=memory');
    expect(files['jvm.config']).toContain('-Xmx2048m');
    expect(files['config.properties']).toContain('access-control.config-files=/home/x/trino/etc/access-control.properties');
    expect(files['access-control.properties']).toContain('access-control.name=file');
  });

  it('Should let each org\'s user use its own catalog only, the admin manage catalogs, and nobody read the system catalog', () => {
    // Act
    const rules = catalogRules(['org_a', 'org_b']);

    // Assess
    expect(rules).toEqual({
      catalogs: [
        { user: 'lakeline', catalog: '.*', allow: 'owner' },
        { user: 'org_a', catalog: 'org_a', allow: 'all' },
        { user: 'org_b', catalog: 'org_b', allow: 'all' },
        { catalog: 'system', allow: 'none' },
      ],
    });
  });
});

describe('the JDK for Trino', () => {
  it('Should pick the newest JDK of version 24 or more, and honour the override', () => {
    // Arrange
    const root = mkdtempSync(path.join(tmpdir(), 'lakeline-jdks-'));
    fakeJdk(root, 'java-17', '17.0.15');
    const jdk24 = fakeJdk(root, 'jdk-24', '24.0.1');
    const jdk25 = fakeJdk(root, 'temurin-25', '25.0.1');

    // Act + Assess
    expect(javaFeatureVersion(jdk25)).toBe(25);
    expect(findTrinoJava({}, [root])).toBe(jdk25);
    expect(findTrinoJava({ JAVA_HOME: jdk24 }, [root])).toBe(jdk25);
    expect(findTrinoJava({ LAKELINE_TRINO_JAVA_HOME: '/opt/jdk' }, [root])).toBe('/opt/jdk');
    expect(findTrinoJava({}, [path.join(root, 'java-17')])).toBeUndefined();
  });
});

describe('an org\'s Trino catalog', () => {
  it('Should be the org\'s JDBC catalog over the shared catalog file, with its own warehouse directory', () => {
    // Act
    const sql = createCatalogSql('c8b7d732-bc82-4eed-a256-f1f33b8861d5', { catalogFile: "/home/o'x/catalog.db", warehouse: '/home/x/warehouse' });

    // Assess
    expect(sql).toMatch(/^CREATE CATALOG "org_c8b7d732bc824eeda256f1f33b8861d5" USING iceberg WITH \(/);
    expect(sql).toContain(`"iceberg.jdbc-catalog.catalog-name" = 'org_c8b7d732bc824eeda256f1f33b8861d5'`);
    expect(sql).toContain(`"iceberg.jdbc-catalog.connection-url" = 'jdbc:sqlite:/home/o''x/catalog.db'`);
    expect(sql).toContain(`"iceberg.jdbc-catalog.default-warehouse-dir" = 'file:///home/x/warehouse/org_c8b7d732bc824eeda256f1f33b8861d5'`);
  });
});

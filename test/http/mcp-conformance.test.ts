/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, server scenarios) against
 * `POST /mcp` on the shared stack. The suite's client sends no headers, so it reaches the gateway
 * through a loopback proxy that adds the org's bearer key. Scenarios that do not apply (they call
 * tools, prompts or resources of the suite's own reference server, or need SSE streams, logging,
 * completion, sampling or elicitation, which a stateless JSON server without them does not offer)
 * are listed in the README's MCP section with the reason.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '#composition/config';
import { freshOrg } from './lineage-api.ts';

const run = promisify(execFile);

/** The server scenarios that apply to lakeline's MCP server. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'tools-call-error'] as const;

describe('MCP conformance (server scenarios)', () => {
  const stack = inject('stack');
  let proxy: http.Server;
  let proxyUrl: string;

  beforeAll(async () => {
    const { token } = await freshOrg('MCP conformance');
    const target = new URL(stack.baseUrl);
    proxy = http.createServer((req, res) => {
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}` } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err) => res.writeHead(502).end(String(err)));
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it.each(SCENARIOS)('Should pass the %s scenario', async (scenario) => {
    const bin = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
    const { stdout } = await run(process.execPath, [bin, 'server', '--url', proxyUrl, '--scenario', scenario], { timeout: 60_000 });
    // eslint-disable-next-line no-control-regex -- the report colours its statuses
    const report = stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(report, report).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  });
});

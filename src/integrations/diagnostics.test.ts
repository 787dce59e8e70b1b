import { describe, expect, it } from 'vitest';
import { NebulyClient } from '../client.js';
import { nebulyTelemetry } from './ai-sdk/telemetry.js';
import { checkTestedVersion, diagnoseOnce } from './diagnostics.js';

function clientWithInfoLog(logLevel: 'info' | 'warn' = 'info') {
  const lines: { message: string; fields: unknown }[] = [];
  const ignore = () => {};
  const nebuly = new NebulyClient({
    apiKey: 'test-key',
    baseUrl: 'http://127.0.0.1:9',
    logLevel,
    logger: { error: ignore, warn: ignore, debug: ignore, info: (message, fields) => lines.push({ message, fields }) },
  });
  return { nebuly, lines };
}

describe('diagnoseOnce', () => {
  it('tells each kind and subject once per client, at info', () => {
    const { nebuly, lines } = clientWithInfoLog();
    diagnoseOnce(nebuly, 'content_not_captured', 'ai', 'first');
    diagnoseOnce(nebuly, 'content_not_captured', 'ai', 'again');
    diagnoseOnce(nebuly, 'content_not_captured', 'openllmetry', 'other subject');
    expect(lines).toEqual([
      { message: 'first', fields: { kind: 'content_not_captured', subject: 'ai' } },
      { message: 'other subject', fields: { kind: 'content_not_captured', subject: 'openllmetry' } },
    ]);
    const other = clientWithInfoLog();
    diagnoseOnce(other.nebuly, 'content_not_captured', 'ai', 'another client');
    expect(other.lines).toHaveLength(1);
  });

  it('says nothing below logLevel info', () => {
    const { nebuly, lines } = clientWithInfoLog('warn');
    diagnoseOnce(nebuly, 'untested_version', 'ai', 'quiet');
    expect(lines).toEqual([]);
  });
});

describe('checkTestedVersion', () => {
  it('a major the integration was tested with says nothing; another is told once, naming what was tested', () => {
    const { nebuly, lines } = clientWithInfoLog();
    checkTestedVersion(nebuly, 'ai', '7.0.173');
    checkTestedVersion(nebuly, 'ai', '6.0.326');
    checkTestedVersion(nebuly, 'ai', undefined);
    expect(lines).toEqual([]);
    checkTestedVersion(nebuly, 'ai', '8.0.0-beta.1');
    checkTestedVersion(nebuly, 'ai', '8.0.1');
    expect(lines.map((line) => line.message)).toEqual([
      'nebuly-client: ai 8.0.0-beta.1 is a version this integration was not tested with (tested: 6.x, 7.x); it may record less or nothing: see the Versions table of docs/integrations.md.',
    ]);
  });

  it('nebulyTelemetry tells an ai version it was not tested with, from ai’s own events', () => {
    const { nebuly, lines } = clientWithInfoLog();
    const integration = nebulyTelemetry({ nebuly, endUser: 'user-1' });
    integration.onStart?.({ callId: 'call-1', operationId: 'ai.generateText', aiVersion: '9.1.0', messages: [{ role: 'user', content: 'Hi' }] });
    integration.onStart?.({ callId: 'call-2', operationId: 'ai.generateText', aiVersion: '9.1.0', messages: [{ role: 'user', content: 'Hi' }] });
    expect(lines.map((line) => line.message)).toEqual([expect.stringContaining('ai 9.1.0 is a version this integration was not tested with')]);
  });
});

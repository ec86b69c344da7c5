import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, openEngine, type Engine } from '../src/index.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { endpoints } from '../src/registry.ts';
import { typedReports } from '../src/reports/report-types.ts';
import { resourceNames } from '../src/engine/resource-types.ts';

/** The typed surface names exactly the registry's reports, and the untyped doors refuse a name that is none. */
describe('typed report names', () => {
  it('are the registry’s report methods: every page, and a stream exactly where the registry has one', () => {
    const reports = endpoints.filter((e) => e.group === 'reports');
    const pages = reports.filter((e) => !e.stream).map((e) => e.name);
    const streams = reports.filter((e) => e.stream).map((e) => e.name);
    expect(Object.keys(typedReports).sort()).toEqual([...pages].sort());
    expect(
      Object.entries(typedReports)
        .filter(([, streamed]) => streamed)
        .map(([name]) => `${name}Stream`)
        .sort(),
    ).toEqual([...streams].sort());
  });

  it('name exactly the registry’s resource methods', () => {
    expect([...resourceNames].sort()).toEqual(
      endpoints
        .filter((e) => e.group === 'resources')
        .map((e) => e.name)
        .sort(),
    );
  });
});

describe('the untyped doors', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await openEngine({ data: sampleDir });
  });
  afterAll(() => engine.close());

  it('give the same methods as the typed names, and NotFoundError for any other name', async () => {
    const [org] = await engine.listOrganizations();
    const scope = engine.org(org!.id);
    expect(scope.report('visibility')).toBe(scope.reports.visibility);
    expect(scope.stream('visibility')).toBe(scope.reports.visibilityStream);
    expect(scope.resource('models')).toBe(scope.resources.models);
    for (const misuse of [
      () => scope.report('visibilty'),
      () => scope.report('visibilityStream'),
      () => scope.report('toString'),
      () => scope.stream('botsV1'),
      () => scope.stream('nope'),
      () => scope.resource('constructor'),
    ]) {
      expect(misuse).toThrow(NotFoundError);
    }
    const models = await scope.resource('models')();
    expect(Object.keys(models).length).toBeGreaterThan(0);
  });
});

import { plainPrepare, type CallContext, type Endpoint, type EndpointInput } from '../endpoint.ts';
import { prepareCall, takenExtensions } from './prepare.ts';
import type { Mode, Report, ReportAlias } from './report.ts';

/** The report's page endpoint and, when it has one, its stream endpoint; the same again for each alias path. */
export function reportEndpoints<Req, Plan>(report: Report<Req, Plan>): Endpoint[] {
  return [
    ...endpointsAt(report, { path: report.path, streamPath: report.streamPath, name: report.name }, report.summary),
    ...(report.aliases ?? []).flatMap((a) => endpointsAt(report, a, `${report.summary} (same as ${report.path})`)),
  ];
}

function endpointsAt<Req, Plan>(report: Report<Req, Plan>, at: ReportAlias, summary: string): Endpoint[] {
  const endpoint = (mode: Mode, path: string, name: string, described: string): Endpoint => ({
    method: 'POST',
    group: 'reports',
    tags: report.tags,
    schemas: { body: report.schema },
    extensions: takenExtensions(report as Report<never, never>),
    ...(report.deprecated ? { deprecated: true } : {}),
    ...(report.successor ? { successor: report.successor } : {}),
    ...(report.sunset ? { sunset: report.sunset } : {}),
    path,
    name,
    summary: described,
    stream: mode === 'stream',
    // Validation and tenancy errors surface before a stream starts, as a normal error response.
    handle: async (input: EndpointInput, ctx: CallContext) =>
      (await prepareCall(report, input.body, mode, ctx, plainPrepare)).run(),
    prepare: (input, ctx, how) => prepareCall(report, input.body, mode, ctx, how),
  });
  const page = endpoint('page', at.path, at.name, summary);
  if (!at.streamPath) return [page];
  return [page, endpoint('stream', at.streamPath, `${at.name}Stream`, `${summary} (${report.framing.streamSummary})`)];
}

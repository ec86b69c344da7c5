import type { CallContext, Endpoint, EndpointInput, EndpointResult } from './endpoint.ts';
import { withAnswerExtensions } from './extensions/answer-extensions.ts';
import { preparePage, runPage } from './paged-prepare.ts';
import type { PagedReport, ReportAlias } from './paged-report.ts';
import { preparedStream, runStream } from './paged-stream.ts';

/** The page endpoint and, when the report has one, its stream endpoint; the same again for each alias path. */
export function pagedEndpoints<Req, Plan>(declared: PagedReport<Req, Plan>): Endpoint[] {
  const report = withAnswerExtensions(declared);
  const main = endpointsAt(
    report,
    { path: report.path, streamPath: report.streamPath, name: report.name },
    report.summary,
  );
  return [
    ...main,
    ...(report.aliases ?? []).flatMap((a) => endpointsAt(report, a, `${report.summary} (same as ${report.path})`)),
  ];
}

function endpointsAt<Req, Plan>(report: PagedReport<Req, Plan>, at: ReportAlias, summary: string): Endpoint[] {
  const base = {
    method: 'POST' as const,
    group: 'reports' as const,
    tags: report.tags,
    schemas: { body: report.schema },
    extensions: [
      ...(report.components ? ['components' as const] : []),
      ...(report.fill ? ['fill' as const] : []),
      ...(report.compare ? ['compare' as const] : []),
    ],
  };
  const page: Endpoint = {
    ...base,
    path: at.path,
    name: at.name,
    summary,
    stream: false,
    handle: (input: EndpointInput, ctx: CallContext): Promise<EndpointResult> => runPage(report, input.body, ctx),
    prepare: async (input, ctx, how) => preparePage(report, input.body, ctx, how),
  };
  if (!at.streamPath) return [page];
  const stream: Endpoint = {
    ...base,
    path: at.streamPath,
    name: `${at.name}Stream`,
    summary: `${summary} (Server-Sent Events: one summary event, then one result event per row)`,
    stream: true,
    handle: (input: EndpointInput, ctx: CallContext): Promise<EndpointResult> => runStream(report, input.body, ctx),
    prepare: async (input, ctx, how) => preparedStream(report, input.body, ctx, how),
  };
  return [page, stream];
}

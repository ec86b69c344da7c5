export { openEngine } from './open-engine.ts';
export { Engine, type EngineOptions, type EngineCore, type EngineHost, type TableInput } from './library/engine.ts';
export {
  OrgScope,
  type ReportsApi,
  type JsonObject,
  type ReportCall,
  type StreamCall,
  type ReportOptions,
  type ResourceCall,
  type ResourceInput,
  type ResourcesApi,
  type Explained,
  type JsonValue,
  type Page,
  type ReportEvent,
  type Body,
} from './library/org-scope.ts';
export type { ReportTypes, StreamedReport, Declared } from './reports/report-types.ts';
export type { ResourceName, ResourceAnswers, AgentRun, QueuedRun } from './engine/resource-types.ts';
export type * from './reports/answer-types.ts';
export type * from './reports/insights-v2/answer-types.ts';
export type * from './reports/answers/answer-types.ts';
export type * from './reports/tabular/tabular-answer.ts';
export type { OrganizationListing } from './engine/organizations.ts';
export {
  EngineError,
  ValidationError,
  AuthError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  GoneError,
  UnavailableError,
  NotAcceptableError,
  DatasetError,
  MissingTableError,
  type ValidationIssue,
  type HTTPValidationError,
} from './errors.ts';
export { generateDataset, type GenerateOptions, type GenerateResult } from './generate/generate.ts';
export { tables, tableNames, type TableName } from './model/tables.ts';
export { metrics } from './model/metrics.ts';
export { endpoints } from './registry.ts';
export type { Endpoint, StreamEvent } from './reports/endpoint.ts';
export { importFlat, type ImportOptions, type ImportResult } from './import/flat-import.ts';
export type { RowShape, ColumnBatch } from './query/row-shape.ts';
export { formats, formatNames, headKey, type FormatName, type TableFormat } from './formats/format-names.ts';
export { encodeRows, type Encoded, type EncodeOptions } from './formats/encode.ts';
export { isCompleteArrowStream } from './formats/arrow.ts';
export { arrowTable, arrowBatches } from './formats/arrow.ts';
export { negotiate } from './formats/accept.ts';
export type { RowsResult, RowsPart } from './reports/endpoint.ts';

export { openEngine } from './open-engine.ts';
export { Engine, type EngineOptions, type EngineCore, type EngineHost, type TableInput } from './engine/engine.ts';
export { OrgScope, type ReportsApi, type JsonObject } from './engine/org-scope.ts';
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
  DatasetError,
  MissingTableError,
  type ValidationIssue,
  type HTTPValidationError,
} from './errors.ts';
export { generateDataset, type GenerateOptions, type GenerateResult } from './generate/generate.ts';
export { tables, tableNames, type TableName } from './model/tables.ts';
export { metrics } from './model/metrics.ts';
export { endpoints } from './reports/registry.ts';
export type { Endpoint, StreamEvent } from './reports/endpoint.ts';
export { importFlat, type ImportOptions, type ImportResult } from './import/flat-import.ts';

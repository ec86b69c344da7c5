import type { Endpoint } from '../../reports/endpoint.ts';
import { documentEndpoints } from './documents.ts';
import { folderEndpoints } from './folders.ts';
import { knowledgeBaseEndpoints } from './knowledge-bases.ts';

/** Knowledge bases: list and search, documents and folders. */
export const allKnowledgeBaseEndpoints: readonly Endpoint[] = [
  ...knowledgeBaseEndpoints,
  ...documentEndpoints,
  ...folderEndpoints,
];

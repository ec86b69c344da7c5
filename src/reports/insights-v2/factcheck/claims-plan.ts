import type { FilterNode } from '../../../query/filter-node.ts';
import type { WindowScope } from '../../insights/scope.ts';

export const sectionDims = ['model', 'region', 'persona', 'prompt', 'topic', 'tag', 'theme'] as const;
export type SectionDimension = (typeof sectionDims)[number];
export const includeNames = ['theme', 'reasoning', 'models', 'evidence', 'citation_sources'] as const;
export type Include = (typeof includeNames)[number];

/** citation_sources lists a claim's most cited pages, best first. */
export const maxCitationSources = 10;

export interface ClaimsPlan extends WindowScope {
  readonly section: SectionDimension | null;
  readonly include: readonly Include[];
  readonly filter: FilterNode | null;
}

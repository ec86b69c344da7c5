import type { FilterCatalog, FilterField } from '../../../query/filter-compiler.ts';
import { textField, textOps, textPredicate } from '../../../query/filter-fields.ts';
import { endsWith, lowerText } from '../../../query/dialect.ts';
import { join, list, sql } from '../../../query/sql.ts';

/**
 * Citation-layer filter fields, over a citations row `f`. `domain` is subdomain-aware for is/in
 * (`example.com` selects example.com and every host under it, ignoring case); its text operators
 * read the hostname.
 */
export const domainField: FilterField = {
  ops: textOps,
  valueType: 'string',
  match: (op, values) => {
    if (op !== 'is' && op !== 'in') return textPredicate(sql`f.hostname`, op, values);
    const host = lowerText(sql`f.hostname`);
    return sql`(${join(
      values.map(
        (v) => sql`${host} = ${lowerText(sql`${v}`)} OR ${endsWith(host, sql`'.' || ${lowerText(sql`${v}`)}`)}`,
      ),
      ' OR ',
    )})`;
  },
};

/** `citation_tag is|in`: the citation's root domain carries one of the organization's citation tags (by name or id). */
export const citationTagField: FilterField = {
  ops: ['is', 'in'],
  valueType: 'string',
  match: (_op, values, scope) => sql`f.root_domain IN (
    SELECT d.root_domain FROM citation_tag_domains d JOIN citation_tags t ON t.id = d.tag_id
    WHERE t.organization_id = ${scope.organizationId} AND (t.id IN (${list(values)}) OR t.name IN (${list(values)})))`,
};

export const citationFields: FilterCatalog = {
  domain: domainField,
  page: textField(sql`f.url`),
  citation_category: textField(sql`f.citation_category`),
  citation_tag: citationTagField,
};

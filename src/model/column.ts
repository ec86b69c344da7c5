export type ColumnType =
  | 'VARCHAR'
  | 'BOOLEAN'
  | 'INTEGER'
  | 'BIGINT'
  | 'DOUBLE'
  | 'DATE'
  | 'TIMESTAMPTZ'
  | 'UUID'
  | 'VARCHAR[]';

export interface ColumnDef {
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly doc: string;
}

export interface TableDef {
  readonly doc: string;
  readonly tenant: 'organization' | 'global';
  readonly key: readonly string[];
  readonly sort: readonly string[];
  readonly columns: Readonly<Record<string, ColumnDef>>;
}

export const col = (type: ColumnType, doc: string): ColumnDef => ({ type, nullable: false, doc });
export const nullable = (type: ColumnType, doc: string): ColumnDef => ({ type, nullable: true, doc });

export const id = (doc: string) => col('VARCHAR', `${doc} (UUID text)`);
export const ref = (table: string) => col('VARCHAR', `references ${table}.id`);
export const optionalRef = (table: string, why: string) => nullable('VARCHAR', `references ${table}.id; ${why}`);

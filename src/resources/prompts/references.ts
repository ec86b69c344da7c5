import { createHash } from 'node:crypto';
import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import { maxNameLength, maxPromptLength, maxRefsPerPrompt } from '../../engine/limits.ts';
import { canonicalUuid, uuidError } from '../../query/schema-types.ts';
import type { Named, PromptSet, Topic } from './prompt-set.ts';
import { NameIndex } from './name-index.ts';
import { Slicer } from '../../engine/slicer.ts';

type Loc = (string | number)[];

/** A reference to a topic, tag, region, platform, persona or asset: by id, by name, or both. */
export interface IdOrName {
  readonly id: string | null;
  readonly name: string | null;
}

/** C0 and C1 control characters, NUL included: never part of a name (they break logs, CSV and terminals). */
export const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

type RefineCtx = { addIssue(issue: { code: 'custom'; message: string; path?: (string | number)[]; params?: Record<string, unknown>; input: unknown }): void };

/** Pushes the issue of a name (or id) that is too long or carries control characters; false when there is one. */
function checkName(v: string, ctx: RefineCtx, path: (string | number)[] = []): boolean {
  if (v.length > maxNameLength) {
    ctx.addIssue({ code: 'custom', path, message: `String should have at most ${maxNameLength} characters`, params: { type: 'string_too_long', ctx: { max_length: maxNameLength } }, input: v });
    return false;
  }
  if (controlCharacters.test(v)) {
    ctx.addIssue({ code: 'custom', path, message: 'a name may not contain control characters (U+0000 to U+001F, U+007F to U+009F)', input: v });
    return false;
  }
  return true;
}

/**
 * `{id, name}` with either key, or a plain string: a UUID is looked up as an id, anything else as a
 * name (what the real service accepts beyond the client's types). Names are at most `maxNameLength`
 * characters without control characters.
 */
export const idOrName = () =>
  z
    .unknown()
    .transform((v, ctx): IdOrName => {
      if (typeof v === 'string') {
        if (v.trim() === '') {
          ctx.addIssue({ code: 'custom', message: 'give an id or a name', input: v });
          return z.NEVER;
        }
        if (!checkName(v, ctx)) return z.NEVER;
        return uuidError(v) === null ? { id: canonicalUuid(v), name: null } : { id: null, name: v };
      }
      if (v === null || typeof v !== 'object' || Array.isArray(v)) {
        ctx.addIssue({ code: 'custom', message: 'Input should be a valid dictionary or object to extract fields from', params: { type: 'model_attributes_type' }, input: v });
        return z.NEVER;
      }
      const o = v as Record<string, unknown>;
      let ok = true;
      for (const k of Object.keys(o)) {
        if (k === 'id' || k === 'name') continue;
        ctx.addIssue({ code: 'custom', path: [k], message: 'Extra inputs are not permitted', params: { type: 'extra_forbidden' }, input: o[k] });
        ok = false;
      }
      for (const k of ['id', 'name']) {
        if (o[k] === undefined || o[k] === null) continue;
        if (typeof o[k] === 'string') {
          ok = checkName(o[k], ctx, [k]) && ok;
          continue;
        }
        ctx.addIssue({ code: 'custom', path: [k], message: 'Input should be a valid string', params: { type: 'string_type' }, input: o[k] });
        ok = false;
      }
      if (!ok) return z.NEVER;
      const id = typeof o.id === 'string' && o.id !== '' ? (uuidError(o.id) === null ? canonicalUuid(o.id) : o.id) : null;
      const name = typeof o.name === 'string' && o.name.trim() !== '' ? o.name : null;
      if (id === null && name === null) {
        ctx.addIssue({ code: 'custom', message: 'give an id or a name', input: v });
        return z.NEVER;
      }
      return { id, name };
    })
    .meta({
      description: 'A reference {id, name} (either key) or a plain string: a UUID is looked up as an id, anything else as a name.',
      anyOf: [
        { type: 'string', maxLength: maxNameLength },
        { type: 'object', properties: { id: { type: ['string', 'null'], maxLength: maxNameLength }, name: { type: ['string', 'null'], maxLength: maxNameLength } }, additionalProperties: false },
      ],
    });

/** A list of references on one prompt: tags, personas, regions or platforms. */
export const refList = () => z.array(idOrName()).max(maxRefsPerPrompt);

/** Line breaks and tabs may format a prompt's text; other control characters may not. */
const promptControls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const promptText = () =>
  z
    .string()
    .min(1)
    .max(maxPromptLength)
    .refine((v) => !promptControls.test(v), 'a prompt may not contain control characters other than tabs and line breaks');

export type RefKind = 'topic' | 'tag' | 'persona' | 'asset' | 'region' | 'platform';

/** A name-based UUID: the same batch on the same store gives the same ids, so a dry run previews them exactly. */
function derivedId(categoryId: string, kind: RefKind, name: string, ordinal: number): string {
  const h = createHash('sha256').update(`${categoryId}\0${kind}\0${name.toLowerCase()}\0${ordinal}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Resolves references against a category's vocabulary while a batch is applied entry after entry.
 * Unknown topic and tag names are created (once per batch); `{id, name}` of a topic with another name
 * renames it. Every failure is an issue at the reference's location; nothing is thrown.
 */
export class Resolver {
  readonly topics: Map<string, Topic>;
  readonly tags: Map<string, Named>;
  readonly newTopics = new Map<string, Topic>();
  readonly renamedTopics = new Map<string, Topic>();
  readonly newTags = new Map<string, Named>();
  /** Each kind's names, built on first use: a name resolves in constant time however many the category has. */
  private readonly names = new Map<RefKind, NameIndex>();

  private constructor(private readonly set: PromptSet) {
    this.topics = new Map(set.topics);
    this.tags = new Map(set.tags);
  }

  /** A resolver over the set; the topics' and tags' names, which grow with edits, are indexed a slice at a time. */
  static async of(set: PromptSet): Promise<Resolver> {
    const resolver = new Resolver(set);
    const slicer = new Slicer();
    resolver.names.set('topic', await NameIndex.build(set.topics.values(), slicer));
    resolver.names.set('tag', await NameIndex.build(set.tags.values(), slicer));
    return resolver;
  }

  private index(kind: RefKind): NameIndex {
    let index = this.names.get(kind);
    if (!index) {
      index = NameIndex.of(this.table(kind).values());
      this.names.set(kind, index);
    }
    return index;
  }

  private table(kind: RefKind): ReadonlyMap<string, Named> {
    switch (kind) {
      case 'topic':
        return this.topics;
      case 'tag':
        return this.tags;
      case 'persona':
        return this.set.personas;
      case 'asset':
        return this.set.assets;
      case 'region':
        return this.set.regions;
      case 'platform':
        return this.set.platforms;
    }
  }

  private scope(kind: RefKind): string {
    return kind === 'region' || kind === 'platform' ? '' : ' in this category';
  }

  /** The `{id, name}` a reference stands for, or undefined after pushing the issue that says why not. */
  resolve(kind: RefKind, ref: IdOrName, loc: Loc, issues: ValidationIssue[]): Named | undefined {
    const found = this.find(kind, ref, loc, issues);
    return found && { id: found.id, name: found.name };
  }

  private find(kind: RefKind, ref: IdOrName, loc: Loc, issues: ValidationIssue[]): Named | undefined {
    const table = this.table(kind);
    if (ref.id !== null) {
      const found = table.get(ref.id);
      if (!found) {
        issues.push(valueError(ref.name === null ? loc : [...loc, 'id'], `no ${kind} with id ${ref.id}${this.scope(kind)}`, ref.id));
        return undefined;
      }
      if (ref.name === null || ref.name === found.name) return found;
      if (kind === 'topic') return this.rename(found as Topic, ref.name, loc, issues);
      if (ref.name.toLowerCase() !== found.name.toLowerCase()) {
        issues.push(valueError([...loc, 'name'], `${kind} ${ref.id} is named '${found.name}', not '${ref.name}'`, ref.name));
        return undefined;
      }
      return found;
    }
    const name = ref.name!;
    const found = this.index(kind).find(name);
    if (found) return found;
    if (kind === 'topic') return this.createTopic(name);
    if (kind === 'tag') return this.createTag(name);
    issues.push(valueError(loc, `no ${kind} named '${name}'${this.scope(kind)}`, name));
    return undefined;
  }

  private rename(topic: Topic, name: string, loc: Loc, issues: ValidationIssue[]): Topic | undefined {
    const clash = this.index('topic').sameNameOtherThan(name, topic.id);
    if (clash) {
      issues.push(valueError([...loc, 'name'], `cannot rename topic ${topic.id} to '${name}': topic ${clash.id} already has that name`, name));
      return undefined;
    }
    const renamed: Topic = { ...topic, name };
    this.index('topic').replace(topic, renamed);
    this.topics.set(topic.id, renamed);
    if (this.newTopics.has(topic.id)) this.newTopics.set(topic.id, renamed);
    else this.renamedTopics.set(topic.id, renamed);
    return renamed;
  }

  private createTopic(name: string): Topic {
    const topic: Topic = { id: derivedId(this.set.categoryId, 'topic', name, this.topics.size), name, status: 'active' };
    this.index('topic').add(topic);
    this.topics.set(topic.id, topic);
    this.newTopics.set(topic.id, topic);
    return topic;
  }

  private createTag(name: string): Named {
    const tag: Named = { id: derivedId(this.set.categoryId, 'tag', name, this.tags.size), name };
    this.index('tag').add(tag);
    this.tags.set(tag.id, tag);
    this.newTags.set(tag.id, tag);
    return tag;
  }

  /** Resolves a list of references; duplicates collapse to their first place. */
  resolveAll(kind: RefKind, refs: readonly IdOrName[], loc: Loc, issues: ValidationIssue[]): Named[] | undefined {
    const out = new Map<string, Named>();
    let ok = true;
    refs.forEach((ref, i) => {
      const found = this.resolve(kind, ref, [...loc, i], issues);
      if (!found) ok = false;
      else if (!out.has(found.id)) out.set(found.id, found);
    });
    return ok ? [...out.values()] : undefined;
  }

  /** The current {id, name} of an id of this kind (names may have changed earlier in the batch). */
  named(kind: RefKind, id: string): Named {
    return { id, name: this.table(kind).get(id)?.name ?? '' };
  }
}

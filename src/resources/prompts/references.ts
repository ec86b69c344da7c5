import { createHash } from 'node:crypto';
import { valueError, type ValidationIssue } from '../../errors.ts';
import type { Named, PromptSet, Topic } from './prompt-set.ts';
import type { IdOrName } from './reference-schemas.ts';
import { NameIndex } from './name-index.ts';
import { loopTurn } from '../../query/loop-turns.ts';

type Loc = (string | number)[];

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
    resolver.names.set('topic', await NameIndex.build(set.topics.values()));
    resolver.names.set('tag', await NameIndex.build(set.tags.values()));
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
        issues.push(
          valueError(
            ref.name === null ? loc : [...loc, 'id'],
            `no ${kind} with id ${ref.id}${this.scope(kind)}`,
            ref.id,
          ),
        );
        return undefined;
      }
      if (ref.name === null || ref.name === found.name) return found;
      if (kind === 'topic') return this.rename(found as Topic, ref.name, loc, issues);
      if (ref.name.toLowerCase() !== found.name.toLowerCase()) {
        issues.push(
          valueError([...loc, 'name'], `${kind} ${ref.id} is named '${found.name}', not '${ref.name}'`, ref.name),
        );
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
      issues.push(
        valueError(
          [...loc, 'name'],
          `cannot rename topic ${topic.id} to '${name}': topic ${clash.id} already has that name`,
          name,
        ),
      );
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
    const topic: Topic = {
      id: derivedId(this.set.categoryId, 'topic', name, this.topics.size),
      name,
      status: 'active',
    };
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

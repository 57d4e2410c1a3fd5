import { createBodyReader } from "./docx-body.ts";
import { createMarkdownWriter, type MarkdownWriter } from "./docx-markdown.ts";
import { type ParagraphKinds, readParagraphKinds } from "./docx-styles.ts";
import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import {
  attributeOf,
  type OoxmlPackage,
  openPackage,
  type Relationship,
  type XmlVisitor,
} from "./ooxml-package.ts";
import { assertSafeArchive } from "./zip-guard.ts";

type NoteKind = "footnote" | "endnote";

/**
 * A Word document as one Markdown section: headings as `#`, lists, tables as header-labelled rows,
 * footnotes and endnotes after the text. The document part is read as a stream, and the character
 * cap is checked as the text grows, so a document over it stops there.
 */
export async function loadDocx(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  const entries = await assertSafeArchive(bytes, budget.limits.maxUncompressedBytes, "DOCX");
  try {
    return await readDocument(openPackage(bytes, entries), budget);
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    throw notAWordDocument();
  }
}

async function readDocument(
  documentPackage: OoxmlPackage,
  budget: LoadBudget,
): Promise<LoadedSection[]> {
  const packageRelationships = await documentPackage.relationships("");
  const documentPath = partOfType(packageRelationships, "officeDocument") ?? "word/document.xml";
  const relationships = await documentPackage.relationships(documentPath);
  const kinds = await readParagraphKinds(documentPackage, {
    styles: partOfType(relationships, "styles"),
    numbering: partOfType(relationships, "numbering"),
  });
  const writer = createMarkdownWriter();
  // Notes are numbered in the order the text references them, footnotes and endnotes together.
  const noteNumbers = new Map<string, number>();
  const body = createBodyReader({
    kinds,
    hyperlinkTarget: (id) => externalTarget(relationships, id),
    noteMarker(kind, id) {
      const key = `${kind}:${id}`;
      const number = noteNumbers.get(key) ?? noteNumbers.size + 1;
      noteNumbers.set(key, number);
      return `[${number}]`;
    },
    emit(block) {
      writer.add(block);
      budget.assertFits(writer.length);
    },
    holding: (characters) => budget.assertFits(writer.length + characters),
  });
  const found = await documentPackage.read(documentPath, withRoot("document", body));
  if (!found) throw notAWordDocument();
  if (noteNumbers.size > 0) {
    const notes = new Map<number, string[]>();
    for (const kind of ["footnote", "endnote"] as const) {
      const path = partOfType(relationships, `${kind}s`);
      if (path)
        await readNotes({ documentPackage, path, kind, noteNumbers, kinds, notes, writer, budget });
    }
    for (const [number, texts] of [...notes].sort(([a], [b]) => a - b)) {
      writer.add({ kind: "note", number, text: texts.join(" ") });
      budget.assertFits(writer.length);
    }
  }
  const { text, title } = writer.finish();
  if (text === "") return [];
  return [budget.add({ text, metadata: title ? { title } : {} })];
}

/** Collects the text of the referenced notes of one notes part, by their numbers. */
async function readNotes(context: {
  documentPackage: OoxmlPackage;
  path: string;
  kind: NoteKind;
  noteNumbers: ReadonlyMap<string, number>;
  kinds: ParagraphKinds;
  notes: Map<number, string[]>;
  writer: MarkdownWriter;
  budget: LoadBudget;
}): Promise<void> {
  const { documentPackage, path, kind, noteNumbers, notes, writer, budget } = context;
  const relationships = await documentPackage.relationships(path);
  let current: string[] | undefined;
  let collected = 0;
  const body = createBodyReader({
    kinds: context.kinds,
    hyperlinkTarget: (id) => externalTarget(relationships, id),
    noteMarker: () => "",
    emit(block) {
      if (!current) return;
      current.push(block.text);
      collected += block.text.length + 1;
      budget.assertFits(writer.length + collected);
    },
    holding: (characters) => budget.assertFits(writer.length + collected + characters),
  });
  await documentPackage.read(path, {
    open(name, attributes) {
      if (name === kind) {
        const number = noteNumbers.get(`${kind}:${attributeOf(attributes, "id") ?? ""}`);
        current = number === undefined ? undefined : [];
        if (number !== undefined && current) notes.set(number, current);
      }
      body.open?.(name, attributes);
    },
    close(name) {
      body.close?.(name);
      if (name === kind) current = undefined;
    },
    text: body.text,
  });
}

/** Refuses a part whose root element is not `name`: another Office document's main part. */
function withRoot(name: string, visitor: XmlVisitor): XmlVisitor {
  let checked = false;
  return {
    ...visitor,
    open(element, attributes) {
      if (!checked && element !== name) throw notAWordDocument();
      checked = true;
      visitor.open?.(element, attributes);
    },
  };
}

function partOfType(
  relationships: ReadonlyMap<string, Relationship>,
  type: string,
): string | undefined {
  for (const relationship of relationships.values()) {
    if (!relationship.external && relationship.type.endsWith(`/${type}`))
      return relationship.target;
  }
  return undefined;
}

function externalTarget(
  relationships: ReadonlyMap<string, Relationship>,
  id: string,
): string | undefined {
  const relationship = relationships.get(id);
  return relationship?.external ? relationship.target : undefined;
}

function notAWordDocument(): DocumentLoadError {
  return new DocumentLoadError("The DOCX could not be read: it is corrupt or not a Word document");
}

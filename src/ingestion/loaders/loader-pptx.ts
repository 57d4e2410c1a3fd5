import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { type OoxmlPackage, openPackage } from "./ooxml-package.ts";
import { createShapeReader } from "./pptx-shapes.ts";
import { assertSafeArchive } from "./zip-guard.ts";

const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
// Slide numbers, dates and footers repeat on every slide and say nothing about its content.
const NOISE_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr"]);

/**
 * One section per slide, in presentation order (the order of `p:sldIdLst`, not of the file
 * names), with the title placeholder as a `#` heading, then the text in shape order, tables as
 * header-labelled rows, and the speaker notes. Slides are read as streams, and the character cap
 * is checked paragraph by paragraph.
 */
export async function loadPptx(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  const entries = await assertSafeArchive(bytes, budget.limits.maxUncompressedBytes, "PPTX");
  try {
    const presentation = openPackage(bytes, entries);
    const slidePaths = await slidesInOrder(presentation);
    budget.checkPages(slidePaths.length, "slides");
    const sections: LoadedSection[] = [];
    for (const [index, slidePath] of slidePaths.entries()) {
      const slide = await slideContent(presentation, slidePath, budget);
      if (!slide) continue;
      const notes = await notesOf(presentation, slidePath, budget, slide.characters);
      const text = [
        slide.title ? `# ${slide.title}` : "",
        slide.lines.join("\n"),
        notes ? `Speaker notes:\n${notes}` : "",
      ]
        .filter((part) => part !== "")
        .join("\n\n");
      if (text === "") continue;
      const metadata = { slide: index + 1, ...(slide.title ? { title: slide.title } : {}) };
      sections.push(budget.add({ text, metadata }));
    }
    return sections;
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    throw new DocumentLoadError("The PPTX could not be read: it is corrupt or not a presentation");
  }
}

async function slidesInOrder(presentation: OoxmlPackage): Promise<string[]> {
  if (
    !presentation.has("ppt/presentation.xml") ||
    !presentation.has("ppt/_rels/presentation.xml.rels")
  ) {
    throw new DocumentLoadError("The PPTX could not be read: it has no slide list");
  }
  const relationships = await presentation.relationships("ppt/presentation.xml");
  const relationshipIds: string[] = [];
  await presentation.read("ppt/presentation.xml", {
    open(name, attributes) {
      if (name !== "sldId") return;
      // The relationship id is the namespaced "r:id"; the plain "id" is a numeric slide id.
      const key = Object.keys(attributes).find((key) => key !== "id" && key.endsWith(":id"));
      if (key) relationshipIds.push(attributes[key]!);
    },
  });
  return relationshipIds.flatMap((id) => {
    const relationship = relationships.get(id);
    return relationship && !relationship.external ? [relationship.target] : [];
  });
}

async function slideContent(
  presentation: OoxmlPackage,
  slidePath: string,
  budget: LoadBudget,
): Promise<{ title: string | undefined; lines: string[]; characters: number } | undefined> {
  let title: string | undefined;
  const lines: string[] = [];
  let characters = 0;
  const found = await presentation.read(
    slidePath,
    createShapeReader({
      shape(placeholder, paragraphs) {
        if (placeholder && TITLE_PLACEHOLDERS.has(placeholder) && title === undefined) {
          title = paragraphs.join(" ").replace(/\s+/g, " ") || undefined;
        } else if (!(placeholder && NOISE_PLACEHOLDERS.has(placeholder))) {
          // One at a time: spreading 200,000 paragraphs into push() overflows the stack.
          for (const paragraph of paragraphs) lines.push(paragraph);
        }
      },
      table(rows) {
        for (const row of rows) lines.push(row);
      },
      paragraph(length) {
        characters += length + 1;
        budget.assertFits(characters);
      },
    }),
  );
  return found ? { title, lines, characters } : undefined;
}

async function notesOf(
  presentation: OoxmlPackage,
  slidePath: string,
  budget: LoadBudget,
  slideCharacters: number,
): Promise<string> {
  const relationships = await presentation.relationships(slidePath);
  const notesPath = [...relationships.values()].find(
    (relationship) => !relationship.external && relationship.type.endsWith("/notesSlide"),
  )?.target;
  if (!notesPath) return "";
  const lines: string[] = [];
  let characters = slideCharacters;
  await presentation.read(
    notesPath,
    createShapeReader({
      shape(placeholder, paragraphs) {
        if (placeholder !== "body") return;
        for (const paragraph of paragraphs) lines.push(paragraph);
      },
      table() {},
      paragraph(length) {
        characters += length + 1;
        budget.assertFits(characters);
      },
    }),
  );
  return lines.join("\n");
}

import JSZip from "jszip";
import type { LoadBudget } from "./load-budget.ts";
import { DocumentLoadError } from "./loader-errors.ts";
import type { LoadedSection } from "./loader-types.ts";
import { renderRecord } from "./markdown-converter.ts";
import {
  attributesOf,
  childrenOf,
  findAll,
  localNameOf,
  paragraphsOf,
  parseOrderedXml,
  parseRelationships,
  type XmlNode,
} from "./ooxml-tree.ts";
import { assertSafeArchive } from "./zip-guard.ts";

const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
// Slide numbers, dates and footers repeat on every slide and say nothing about its content.
const NOISE_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr"]);

/**
 * One section per slide, in presentation order (the order of `p:sldIdLst`, not of the file
 * names), with the title placeholder as a `#` heading, then the text in shape order, tables as
 * header-labelled rows, and the speaker notes.
 */
export async function loadPptx(bytes: Uint8Array, budget: LoadBudget): Promise<LoadedSection[]> {
  await assertSafeArchive(bytes, budget.limits.maxUncompressedBytes, "PPTX");
  try {
    const zip = await JSZip.loadAsync(bytes);
    const read = async (path: string) => zip.file(path)?.async("string");
    const slidePaths = await slidesInOrder(read);
    budget.checkPages(slidePaths.length, "slides");
    const sections: LoadedSection[] = [];
    for (const [index, slidePath] of slidePaths.entries()) {
      const slideXml = await read(slidePath);
      if (slideXml === undefined) continue;
      const slide = slideContent(parseOrderedXml(slideXml));
      const notes = await notesOf(slidePath, read);
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

type ReadPart = (path: string) => Promise<string | undefined>;

async function slidesInOrder(read: ReadPart): Promise<string[]> {
  const presentationXml = await read("ppt/presentation.xml");
  const relsXml = await read("ppt/_rels/presentation.xml.rels");
  if (presentationXml === undefined || relsXml === undefined) {
    throw new DocumentLoadError("The PPTX could not be read: it has no slide list");
  }
  const relationships = parseRelationships(relsXml, "ppt");
  const slideIds = findAll(parseOrderedXml(presentationXml), "sldId");
  return slideIds.flatMap((slideId) => {
    // The relationship id is the namespaced "r:id"; the plain "id" is a numeric slide id.
    const attributes = attributesOf(slideId);
    const key = Object.keys(attributes).find((name) => name !== "id" && name.endsWith(":id"));
    const target = key ? relationships.get(attributes[key]!)?.target : undefined;
    return target ? [target] : [];
  });
}

async function notesOf(slidePath: string, read: ReadPart): Promise<string> {
  const folder = slidePath.slice(0, slidePath.lastIndexOf("/"));
  const fileName = slidePath.slice(slidePath.lastIndexOf("/") + 1);
  const relsXml = await read(`${folder}/_rels/${fileName}.rels`);
  if (relsXml === undefined) return "";
  const notesPath = [...parseRelationships(relsXml, folder).values()].find((relationship) =>
    relationship.type.endsWith("/notesSlide"),
  )?.target;
  const notesXml = notesPath ? await read(notesPath) : undefined;
  if (notesXml === undefined) return "";
  const bodies = findAll(parseOrderedXml(notesXml), "sp").filter(
    (shape) => placeholderType(shape) === "body",
  );
  return paragraphsOf(bodies).join("\n");
}

function slideContent(tree: XmlNode[]): { title: string | undefined; lines: string[] } {
  let title: string | undefined;
  const lines: string[] = [];
  const visit = (nodes: readonly XmlNode[]) => {
    for (const node of nodes) {
      const name = localNameOf(node);
      if (name === "sp") {
        const type = placeholderType(node);
        const paragraphs = paragraphsOf([node]);
        if (type && TITLE_PLACEHOLDERS.has(type) && title === undefined) {
          title = paragraphs.join(" ").replace(/\s+/g, " ") || undefined;
        } else if (!(type && NOISE_PLACEHOLDERS.has(type))) {
          lines.push(...paragraphs);
        }
      } else if (name === "tbl") {
        lines.push(...tableLines(node));
      } else {
        visit(childrenOf(node));
      }
    }
  };
  visit(tree);
  return { title, lines };
}

function tableLines(table: XmlNode): string[] {
  const rows = findAll([table], "tr")
    .map((row) => findAll([row], "tc").map((cell) => paragraphsOf([cell]).join(" ")))
    .filter((cells) => cells.some((cell) => cell !== ""));
  const [header, ...body] = rows;
  if (!header) return [];
  if (body.length === 0) return [header.join(" | ")];
  return body.map((cells) => renderRecord(header, cells));
}

function placeholderType(shape: XmlNode): string | undefined {
  const [placeholder] = findAll([shape], "ph");
  if (!placeholder) return undefined;
  // A placeholder without a type is a body placeholder (ECMA-376 default).
  return attributesOf(placeholder).type ?? "body";
}

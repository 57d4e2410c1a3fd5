import { attributeOf, type OoxmlPackage } from "./ooxml-package.ts";

/** A list item's nesting (0 = top level) and whether its numbering counts (1., a., i.) or bullets. */
export type ListLevel = { level: number; ordered: boolean };

/** What a paragraph's style and numbering make of it, read from styles.xml and numbering.xml. */
export type ParagraphKinds = {
  /** 1–6 for the heading styles (and Title), undefined for any other style. */
  headingLevel(styleId: string | undefined): number | undefined;
  /** The list level of a paragraph with this numbering (`w:numPr`) or paragraph style, if any. */
  listLevel(
    numbering: { numId?: string; level?: string },
    styleId: string | undefined,
  ): ListLevel | undefined;
};

type NumberingLevel = ListLevel & { paragraphStyleId: string | undefined };
type AbstractNumbering = { levels: Map<string, NumberingLevel>; styleLink: string | undefined };

// Word writes a built-in style's English name ("heading 1") in every language while its id may be
// localized ("berschrift1"); mammoth matched both the ids and the names, and "Heading" is what
// Apple Pages writes. "Title" was a plain paragraph under mammoth; it heads the document.
const HEADING_ID = /^Heading([1-6])?$/;
const HEADING_NAME = /^heading(?: ([1-6]))?$/i;

/**
 * Reads the styles and numbering parts of a Word document (small parts: kilobytes even in long
 * documents). List levels are resolved as mammoth did: explicit numbering first, then a
 * numbering level bound to the paragraph's style, then level 0 of a numbering without a level.
 */
export async function readParagraphKinds(
  documentPackage: OoxmlPackage,
  paths: { styles: string | undefined; numbering: string | undefined },
): Promise<ParagraphKinds> {
  const headingLevels = new Map<string, number>();
  // Numbering styles (`w:type="numbering"`) point at a numbering through their own w:numId.
  const numberingStyles = new Map<string, string>();
  if (paths.styles) {
    await documentPackage.read(paths.styles, stylesReader(headingLevels, numberingStyles));
  }

  const abstracts = new Map<string, AbstractNumbering>();
  const numberings = new Map<string, string>();
  if (paths.numbering) {
    await documentPackage.read(paths.numbering, numberingReader(abstracts, numberings));
  }
  const byParagraphStyle = new Map<string, NumberingLevel>();
  for (const abstract of abstracts.values()) {
    for (const level of abstract.levels.values()) {
      if (level.paragraphStyleId !== undefined) byParagraphStyle.set(level.paragraphStyleId, level);
    }
  }

  const findLevel = (numId: string, level: string, seen: Set<string>): ListLevel | undefined => {
    if (seen.has(numId)) return undefined;
    seen.add(numId);
    const abstract = abstracts.get(numberings.get(numId) ?? "");
    if (!abstract) return undefined;
    if (abstract.styleLink === undefined) return abstract.levels.get(level);
    const linkedNumId = numberingStyles.get(abstract.styleLink);
    return linkedNumId === undefined ? undefined : findLevel(linkedNumId, level, seen);
  };

  return {
    headingLevel(styleId) {
      if (styleId === undefined) return undefined;
      const byId = HEADING_ID.exec(styleId);
      if (byId) return Number(byId[1] ?? 1);
      return headingLevels.get(styleId);
    },
    listLevel({ numId, level }, styleId) {
      if (numId !== undefined && level !== undefined) return findLevel(numId, level, new Set());
      const byStyle = styleId === undefined ? undefined : byParagraphStyle.get(styleId);
      if (byStyle) return byStyle;
      return numId === undefined ? undefined : findLevel(numId, "0", new Set());
    },
  };
}

function stylesReader(headingLevels: Map<string, number>, numberingStyles: Map<string, string>) {
  let style: { id: string; type: string | undefined } | undefined;
  return {
    open(name: string, attributes: Readonly<Record<string, string>>) {
      if (name === "style") {
        const id = attributeOf(attributes, "styleId");
        style = id === undefined ? undefined : { id, type: attributeOf(attributes, "type") };
      } else if (style && name === "name") {
        const styleName = attributeOf(attributes, "val") ?? "";
        const heading = HEADING_NAME.exec(styleName);
        if (heading) headingLevels.set(style.id, Number(heading[1] ?? 1));
        else if (styleName.toLowerCase() === "title") headingLevels.set(style.id, 1);
      } else if (style?.type === "numbering" && name === "numId") {
        const numId = attributeOf(attributes, "val");
        if (numId !== undefined) numberingStyles.set(style.id, numId);
      }
    },
    close(name: string) {
      if (name === "style") style = undefined;
    },
  };
}

function numberingReader(
  abstracts: Map<string, AbstractNumbering>,
  numberings: Map<string, string>,
) {
  let abstract: AbstractNumbering | undefined;
  let level:
    | { index: string; format: string | undefined; paragraphStyleId: string | undefined }
    | undefined;
  let numId: string | undefined;
  return {
    open(name: string, attributes: Readonly<Record<string, string>>) {
      if (name === "abstractNum") {
        abstract = { levels: new Map(), styleLink: undefined };
        abstracts.set(attributeOf(attributes, "abstractNumId") ?? "", abstract);
      } else if (abstract && name === "lvl") {
        // A level without an index is level 0 in files that reference it without one.
        const index = attributeOf(attributes, "ilvl") ?? "0";
        level = { index, format: undefined, paragraphStyleId: undefined };
      } else if (level && name === "numFmt") {
        level.format = attributeOf(attributes, "val");
      } else if (level && name === "pStyle") {
        level.paragraphStyleId = attributeOf(attributes, "val");
      } else if (abstract && name === "numStyleLink") {
        abstract.styleLink = attributeOf(attributes, "val");
      } else if (name === "num") {
        numId = attributeOf(attributes, "numId");
      } else if (numId !== undefined && name === "abstractNumId") {
        numberings.set(numId, attributeOf(attributes, "val") ?? "");
      }
    },
    close(name: string) {
      if (name === "lvl" && abstract && level) {
        if (!abstract.levels.has(level.index)) {
          abstract.levels.set(level.index, {
            level: Number(level.index) || 0,
            // mammoth's rule: anything but bullets is numbered (decimal, letters, roman…).
            ordered: level.format !== "bullet",
            paragraphStyleId: level.paragraphStyleId,
          });
        }
        level = undefined;
      } else if (name === "abstractNum") {
        abstract = undefined;
      } else if (name === "num") {
        numId = undefined;
      }
    },
  };
}

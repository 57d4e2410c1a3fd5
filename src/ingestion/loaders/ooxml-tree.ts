import { XMLParser } from "fast-xml-parser";

/** An element of fast-xml-parser's order-preserving tree: `{ [tag]: children, ":@": attributes }`. */
export type XmlNode = Record<string, unknown>;

/** Parses OOXML keeping document order, which is reading order for slides and paragraphs. */
export function parseOrderedXml(xml: string): XmlNode[] {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    // Leading and trailing spaces inside <a:t> runs separate words.
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    // The only built-in switch that also decodes numeric references (&#x2019;), which XML
    // requires; the replacement (`entityDecoder`) would mean writing a decoder by hand.
    htmlEntities: true,
  });
  return parser.parse(xml) as XmlNode[];
}

function tagOf(node: XmlNode): string {
  return Object.keys(node).find((key) => key !== ":@") ?? "";
}

/** The tag without its namespace prefix: "a:p" → "p". Prefixes are conventional, not fixed. */
export function localNameOf(node: XmlNode): string {
  const tag = tagOf(node);
  return tag.slice(tag.indexOf(":") + 1);
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const children = node[tagOf(node)];
  return Array.isArray(children) ? (children as XmlNode[]) : [];
}

export function attributesOf(node: XmlNode): Record<string, string> {
  return (node[":@"] as Record<string, string> | undefined) ?? {};
}

/** Every descendant element with this local name, in document order (not descending into matches). */
export function findAll(nodes: readonly XmlNode[], localName: string): XmlNode[] {
  const found: XmlNode[] = [];
  const visit = (list: readonly XmlNode[]) => {
    for (const node of list) {
      if (localNameOf(node) === localName) found.push(node);
      else visit(childrenOf(node));
    }
  };
  visit(nodes);
  return found;
}

/** The text of a DrawingML paragraph (`a:p`): its runs and fields joined, line breaks kept. */
function paragraphText(paragraph: XmlNode): string {
  let text = "";
  const visit = (list: readonly XmlNode[], insideText: boolean) => {
    for (const node of list) {
      if ("#text" in node) {
        if (insideText) text += String(node["#text"]);
        continue;
      }
      const name = localNameOf(node);
      if (name === "br") text += "\n";
      else visit(childrenOf(node), insideText || name === "t");
    }
  };
  visit(childrenOf(paragraph), false);
  return text.replace(/[^\S\n]+/g, " ").trim();
}

/** The non-empty paragraphs under these nodes, in order. */
export function paragraphsOf(nodes: readonly XmlNode[]): string[] {
  return findAll(nodes, "p")
    .map(paragraphText)
    .filter((text) => text !== "");
}

/** Relationship id → part path, resolved against the folder of the part that owns the .rels file. */
export function parseRelationships(
  relsXml: string,
  ownerFolder: string,
): Map<string, { target: string; type: string }> {
  const relationships = new Map<string, { target: string; type: string }>();
  for (const node of findAll(parseOrderedXml(relsXml), "Relationship")) {
    const { Id: id, Target: target, Type: type, TargetMode: mode } = attributesOf(node);
    if (!id || !target || mode === "External") continue;
    relationships.set(id, { target: resolvePartPath(ownerFolder, target), type: type ?? "" });
  }
  return relationships;
}

function resolvePartPath(folder: string, target: string): string {
  const segments = target.startsWith("/") ? [] : folder.split("/").filter(Boolean);
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

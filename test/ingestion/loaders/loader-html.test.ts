import { describe, expect, test } from "vitest";
import { readHtmlPage } from "../../../src/ingestion/loaders/loader-html.ts";

const paragraph = (topic: string) =>
  `<p>${`Our ${topic} guide explains every step in plain words so that customers can follow it. `.repeat(4)}</p>`;

const page = `<!doctype html>
<html><head><title>Shipping guide | Acme Store</title><style>.x{color:red}</style></head>
<body>
  <header><a href="/">Acme Store</a><nav><a href="/shop">Shop</a><a href="/cart">Cart</a></nav></header>
  <div role="navigation"><a href="/account">My account</a></div>
  <main>
    <article>
      <h1>Shipping guide</h1>
      ${paragraph("shipping")}
      <h2>International orders</h2>
      ${paragraph("customs")}
      <p>See the <a href="../rates?zone=eu">rate table</a> or <a href="javascript:alert(1)">click</a>.</p>
      <table><tr><th>Zone</th><th>Days</th></tr><tr><td>EU</td><td>3</td></tr><tr><td>US</td><td>7</td></tr></table>
    </article>
    <aside>Popular products: kettles, mugs</aside>
  </main>
  <footer>Copyright 2024 Acme. Privacy policy.</footer>
  <script>window.tracking = "secret-tracker";</script>
</body></html>`;

describe("readHtmlPage", () => {
  const result = readHtmlPage(page, "https://shop.example.com/help/shipping");

  test("keeps the page title and opens the Markdown with it", () => {
    expect(result.title).toBe("Shipping guide | Acme Store");
    expect(result.markdown.startsWith("# Shipping guide | Acme Store\n\n")).toBe(true);
  });

  test("keeps headings and the article's text", () => {
    expect(result.markdown).toContain("## International orders");
    expect(result.markdown).toContain("Our customs guide explains every step");
    expect(result.markdown).toContain("Zone: EU | Days: 3\nZone: US | Days: 7");
  });

  test("drops navigation, header, sidebar, footer, styles and scripts", () => {
    for (const chrome of [
      "Shop",
      "Cart",
      "My account",
      "Popular products",
      "Copyright",
      "secret-tracker",
      "color:red",
    ]) {
      expect(result.markdown).not.toContain(chrome);
    }
  });

  test("lists the page's links as written, menus included, without script links", () => {
    expect(result.links).toEqual(["/", "/shop", "/cart", "/account", "../rates?zone=eu"]);
  });

  test("makes links absolute and drops script links", () => {
    expect(result.markdown).toContain("[rate table](https://shop.example.com/rates?zone=eu)");
    expect(result.markdown).not.toContain("javascript:");
    expect(result.markdown).toContain("or click.");
  });

  test("converts a short fragment without a title", () => {
    const short = readHtmlPage(
      "<nav>Menu</nav><h2>Hours</h2><p>Open 9 to 5.</p>",
      "https://example.com/",
    );
    expect(short).toEqual({ title: null, markdown: "## Hours\n\nOpen 9 to 5.", links: [] });
  });

  test("reads the title of a page that leaves out <html>, <head> and <body>", () => {
    const bare = readHtmlPage(
      "<!doctype html><title>Opening hours</title><p>Open 9 to 5 &amp; later.</p>",
      "https://example.com/",
    );
    expect(bare).toEqual({
      title: "Opening hours",
      markdown: "# Opening hours\n\nOpen 9 to 5 & later.",
      links: [],
    });
  });

  test("returns null as title when the page has none", () => {
    expect(readHtmlPage("<p>Just a line.</p>", "https://example.com/")).toEqual({
      title: null,
      markdown: "Just a line.",
      links: [],
    });
  });
});

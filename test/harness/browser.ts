/** A response and the URL it answered. */
export type Page = { url: string; response: Response; body: string };

/**
 * A browser reduced to what sign-in flows need: plain fetch with a cookie jar per host, and
 * redirects followed by hand so a test sees (and may stop at) each hop.
 */
export function createBrowser() {
  const jar = new Map<string, Map<string, string>>();

  function remember(url: URL, response: Response) {
    const cookies = jar.get(url.host) ?? new Map<string, string>();
    jar.set(url.host, cookies);
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const value = pair.slice(pair.indexOf("=") + 1).trim();
      const expired = attributes.some(
        (attribute) =>
          /^\s*max-age=0\s*$/i.test(attribute) ||
          (/^\s*expires=/i.test(attribute) && Date.parse(attribute.split("=")[1]!) <= Date.now()),
      );
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  const browser = {
    /** The cookies this browser holds for a host, as a `Cookie` header value. */
    cookieHeader(url: string): string {
      const cookies = jar.get(new URL(url).host) ?? new Map();
      return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    },

    /** One request, without following a redirect. */
    async go(url: string, form?: Record<string, string>): Promise<Page> {
      const target = new URL(url);
      const response = await fetch(target, {
        method: form ? "POST" : "GET",
        redirect: "manual",
        headers: {
          cookie: browser.cookieHeader(url),
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      remember(target, response);
      return { url: target.href, response, body: await response.text() };
    },

    /** Follows redirects from `page` until an answer that is not one, or one `stop` accepts. */
    async follow(page: Page, stop: (location: string) => boolean = () => false): Promise<Page> {
      let current = page;
      for (let hops = 0; hops < 20; hops++) {
        const location = current.response.headers.get("location");
        if (current.response.status < 300 || current.response.status >= 400 || !location) {
          return current;
        }
        const next = new URL(location, current.url).href;
        if (stop(next)) return current;
        current = await browser.go(next);
      }
      throw new Error(`more than 20 redirects from ${page.url}`);
    },

    /** Submits the page's form (its `action`, POST) with these fields, then follows on. */
    async submit(
      page: Page,
      fields: Record<string, string>,
      stop?: (location: string) => boolean,
    ): Promise<Page> {
      const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
      if (!action) throw new Error(`no form at ${page.url}: ${page.body.slice(0, 300)}`);
      return browser.follow(await browser.go(new URL(action, page.url).href, fields), stop);
    },
  };
  return browser;
}

export type Browser = ReturnType<typeof createBrowser>;

import type { Page } from "playwright-core";
import { describe, expect, onTestFinished } from "vitest";
import { htmlPage, sitemap, startFakeWebSite } from "../fakes/web-site.ts";
import type { Datasource } from "../harness/client.ts";
import { createDatastore, uploadFile, waitForSync } from "../knowledge/knowledge-helpers.ts";
import {
  consoleTest,
  expectAccessible,
  PHONE,
  runsConsole,
  screenshot,
  signedInPage,
} from "./console-fixtures.ts";

const test = consoleTest({ orgName: "Knowledge Co" });

const HOURS = "# Opening hours\n\nThe shop opens at nine on weekdays and closes at six.\n";
const RETURNS = "Returns are accepted within thirty days with the receipt.\n";
/** The first bytes of a PNG image: a type the API refuses whatever its name says. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** The row of the datasource named `name` in the datasource table. */
const rowOf = (page: Page, name: string) =>
  page.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });

/** Waits until the datasource's row shows the status word. */
async function expectStatus(page: Page, name: string, status: string) {
  await rowOf(page, name).getByText(status, { exact: true }).waitFor();
}

describe.skipIf(!runsConsole)("the knowledge pages", () => {
  test("an empty organization is told how to start", async ({ app, apiUrl, browser }) => {
    const empty = await app.createOrganization("Empty Co");
    const { page } = await signedInPage(browser, app, apiUrl, empty, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/knowledge`);
    await page.getByRole("heading", { name: "Knowledge", level: 1 }).waitFor();
    await page.getByText("No datastore yet").waitFor();
    await page.getByRole("heading", { name: "Create a datastore" }).waitFor();
    await expectAccessible(page);
  });

  test("a member creates a datastore, uploads two files at once and sees both synched", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/knowledge`);
    await page.getByRole("heading", { name: "Create a datastore" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Shop handbook");
    await page.getByLabel("Description").fill("Hours, returns and warranty");
    await page.getByRole("button", { name: "Create datastore" }).click();

    await page.getByRole("heading", { name: "Shop handbook", level: 1 }).waitFor();
    const datastoreId = new URL(page.url()).pathname.split("/").at(-1)!;
    const stored = await api.datastores.get(datastoreId);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      name: "Shop handbook",
      description: "Hours, returns and warranty",
      visibility: "private",
    });
    await page.getByText("No datasource yet").waitFor();
    await expectAccessible(page);

    await page.getByLabel("Upload files").setInputFiles([
      { name: "hours.md", mimeType: "text/markdown", buffer: Buffer.from(HOURS) },
      { name: "returns.txt", mimeType: "text/plain", buffer: Buffer.from(RETURNS) },
    ]);
    for (const name of ["hours.md", "returns.txt"]) {
      const upload = page.getByRole("listitem").filter({ hasText: name });
      await upload.getByRole("progressbar", { name }).waitFor();
      await upload.getByText("uploaded", { exact: true }).waitFor();
    }
    // The list refreshes by itself until both syncs end.
    await expectStatus(page, "hours.md", "synched");
    await expectStatus(page, "returns.txt", "synched");

    const listed = (await api.datastores.datasources(datastoreId)).body as Datasource[];
    expect(listed.map((datasource) => [datasource.name, datasource.status]).sort()).toEqual([
      ["hours.md", "synched"],
      ["returns.txt", "synched"],
    ]);
    for (const datasource of listed) {
      expect(datasource.chunkCount).toBeGreaterThan(0);
      await rowOf(page, datasource.name)
        .getByRole("cell", { name: String(datasource.chunkCount), exact: true })
        .waitFor();
    }

    // A type the API refuses: its own message, under the file's name.
    const refused = await uploadFile(app, org, datastoreId, {
      fileName: "logo.txt",
      contentType: "text/plain",
      content: PNG,
    });
    expect(refused.status).toBe(400);
    const message = (refused.body as unknown as { error: string }).error;
    expect(message).toContain("PNG");
    await page
      .getByLabel("Upload files")
      .setInputFiles([{ name: "logo.png", mimeType: "image/png", buffer: PNG }]);
    await page.getByRole("listitem").filter({ hasText: "logo.png" }).getByText(message).waitFor();
    expect((await api.datastores.datasources(datastoreId)).body).toHaveLength(2);

    await expectAccessible(page);
    await screenshot(page, "knowledge-datastore");

    await page
      .getByRole("navigation", { name: "Datastore" })
      .getByRole("link", { name: "Query tester" })
      .click();
    await page.getByLabel("Question").fill("When does the shop open on weekdays?");
    await page.getByRole("button", { name: "Search" }).click();
    const first = page.getByRole("listitem").filter({ hasText: "opens at nine" });
    await first.getByText("hours.md").waitFor();
    await first.getByText(/^Score \d[.,]\d{3}$/).waitFor();
    await expectAccessible(page);
    await screenshot(page, "knowledge-query");

    // Words that are nowhere: the empty state, not an empty list.
    await page.getByLabel("Ranking").selectOption("text");
    await page.getByLabel("Question").fill("zeppelin quasar");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No passage matches").waitFor();
    await expectAccessible(page);

    await page.getByRole("link", { name: "Knowledge", exact: true }).first().click();
    await page.getByRole("link", { name: "Shop handbook" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "knowledge-list");
  });

  test("files are sent three at a time, each with its own progress", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Many files" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    let inFlight = 0;
    let mostAtOnce = 0;
    await page.route("**/api/datasources", async (route) => {
      inFlight += 1;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      // Held a moment, so the uploads overlap as large files would.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const response = await route.fetch();
      inFlight -= 1;
      await route.fulfill({ response });
    });
    await page.goto(`${apiUrl}/console/knowledge/${datastore.id}`);
    const names = ["one.txt", "two.txt", "three.txt", "four.txt", "five.txt"];
    await page.getByLabel("Upload files").setInputFiles(
      names.map((name) => ({
        name,
        mimeType: "text/plain",
        buffer: Buffer.from(`The file called ${name} says hello.`),
      })),
    );
    for (const name of names) {
      await page
        .getByRole("listitem")
        .filter({ has: page.getByRole("progressbar", { name }) })
        .getByText("uploaded", { exact: true })
        .waitFor();
    }
    expect(mostAtOnce).toBe(3);
    const listed = (await api.datastores.datasources(datastore.id)).body as Datasource[];
    expect(listed.map((datasource) => datasource.name).sort()).toEqual([...names].sort());
  });

  test("a member adds a web page on a schedule, and the API's refusal of a URL is shown", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const site = await startFakeWebSite({
      "/warranty": htmlPage(
        "Warranty",
        "Every grinder carries a two-year warranty covering the burrs and the motor.",
      ),
    });
    onTestFinished(() => site.close());
    const datastore = await createDatastore(app, org, { name: "Web knowledge" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/knowledge/${datastore.id}`);
    await page.getByRole("heading", { name: "Add a web page or site" }).waitFor();

    await page.getByLabel("Page URL").fill("ftp://example.com/warranty");
    await page.getByRole("button", { name: "Add web page" }).click();
    await page.getByRole("alert").getByText("must be an absolute http(s) URL").waitFor();

    await page.getByLabel("Page URL").fill(`${site.base}/warranty`);
    await page.getByLabel("Name", { exact: true }).fill("Warranty page");
    await page.getByLabel("Re-sync schedule").selectOption("daily");
    await page.getByRole("button", { name: "Add web page" }).click();
    await expectStatus(page, "Warranty page", "synched");

    const [created] = (await api.datastores.datasources(datastore.id)).body as Datasource[];
    expect(created).toMatchObject({
      type: "web_page",
      name: "Warranty page",
      status: "synched",
      syncSchedule: "daily",
      config: { source_url: `${site.base}/warranty` },
    });
    const row = rowOf(page, "Warranty page");
    await row.getByRole("link", { name: `${site.base}/warranty` }).waitFor();
    await expect
      .poll(() => row.getByLabel("Re-sync schedule of Warranty page").inputValue())
      .toBe("daily");

    // The schedule is changed in the row; "Sync again" queues a new sync of the page.
    await row.getByLabel("Re-sync schedule of Warranty page").selectOption("none");
    await expect
      .poll(async () => (await api.datasources.get(created!.id)).body.syncSchedule)
      .toBeNull();
    const before = site.requests.length;
    await row.getByRole("button", { name: "Sync again" }).click();
    await expect.poll(() => site.requests.length).toBeGreaterThan(before);
    await expectStatus(page, "Warranty page", "synched");
    await expectAccessible(page);

    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete datasource" }).click();
    await page.getByText("No datasource yet").waitFor();
    expect((await api.datastores.datasources(datastore.id)).body).toEqual([]);
  });

  test("a member adds a whole web site by its sitemap and opens its pages", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const site = await startFakeWebSite();
    onTestFinished(() => site.close());
    site.routes.set("/map.xml", sitemap([`${site.base}/grinders`, `${site.base}/kettles`]));
    site.routes.set("/grinders", htmlPage("Grinders", "Conical burr grinders for espresso."));
    site.routes.set("/kettles", htmlPage("Kettles", "Gooseneck kettles for pour-over."));
    const datastore = await createDatastore(app, org, { name: "Catalogue" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/knowledge/${datastore.id}`);

    await page.getByLabel("A whole web site").check();
    await page.getByLabel("Sitemap URL").fill(`${site.base}/map.xml`);
    await page.getByLabel("Name", { exact: true }).fill("Shop site");
    await page.getByRole("button", { name: "Add web site" }).click();
    await expectStatus(page, "Shop site", "synched");

    const listed = (await api.datastores.datasources(datastore.id)).body as Datasource[];
    const shopSite = listed.find((datasource) => datasource.type === "web_site")!;
    expect(shopSite).toMatchObject({
      name: "Shop site",
      config: { sitemap: `${site.base}/map.xml` },
    });
    const pages = listed.filter((datasource) => datasource.groupId === shopSite.id);
    expect(pages.map((datasource) => datasource.name).sort()).toEqual(["Grinders", "Kettles"]);

    // The pages stay folded under their site until asked for.
    expect(await page.getByRole("rowheader", { name: "Grinders" }).count()).toBe(0);
    await rowOf(page, "Shop site").getByRole("button", { name: "Show 2 pages" }).click();
    for (const name of ["Grinders", "Kettles"]) await expectStatus(page, name, "synched");
    await rowOf(page, "Grinders")
      .getByRole("link", { name: `${site.base}/grinders` })
      .waitFor();
    await expectAccessible(page);
  });

  test("a member renames and deletes a datastore in its settings", async ({
    app,
    apiUrl,
    browser,
    org,
    api,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Old name" });
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished);
    await page.goto(`${apiUrl}/console/knowledge/${datastore.id}/settings`);
    await page.getByLabel("Name", { exact: true }).fill("New name");
    await page.getByLabel("Visibility").selectOption("public");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "New name", level: 1 }).waitFor();
    expect((await api.datastores.get(datastore.id)).body).toMatchObject({
      name: "New name",
      visibility: "public",
    });
    await expectAccessible(page);

    await page.getByRole("button", { name: "Delete datastore" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete datastore" }).click();
    await page.getByRole("heading", { name: "Knowledge", level: 1 }).waitFor();
    expect((await api.datastores.get(datastore.id)).status).toBe(404);

    // An address of a datastore that is no more: the API's answer, not a blank page.
    await page.goto(`${apiUrl}/console/knowledge/${datastore.id}`);
    await page.getByRole("alert").waitFor();
    await expectAccessible(page);
  });

  test("a viewer reads datasources and queries, and sees no control to change them", async ({
    app,
    apiUrl,
    browser,
    org,
  }) => {
    const datastore = await createDatastore(app, org, { name: "Read only" });
    const uploaded = await uploadFile(app, org, datastore.id, {
      fileName: "faq.md",
      contentType: "text/markdown",
      content: "# Shipping\n\nParcels leave the warehouse within two working days.\n",
    });
    expect(uploaded.status).toBe(201);
    await waitForSync(app, org, uploaded.body.id);

    const { page } = await signedInPage(browser, app, apiUrl, org, "viewer", onTestFinished);
    await page.goto(`${apiUrl}/console/knowledge`);
    await page.getByRole("link", { name: "Read only" }).waitFor();
    expect(await page.getByRole("heading", { name: "Create a datastore" }).count()).toBe(0);

    await page.getByRole("link", { name: "Read only" }).click();
    await expectStatus(page, "faq.md", "synched");
    expect(await page.getByLabel("Upload files").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sync again" }).count()).toBe(0);
    await expectAccessible(page);

    await page.getByRole("link", { name: "Settings" }).last().click();
    await page.getByText("Your role (viewer) reads the datastore").waitFor();
    expect(await page.getByRole("button", { name: "Delete datastore" }).count()).toBe(0);
    expect(await page.getByRole("textbox").count()).toBe(0);
    await expectAccessible(page);

    await page.getByRole("link", { name: "Query tester" }).click();
    await page.getByLabel("Question").fill("How fast do parcels leave?");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("listitem").filter({ hasText: "two working days" }).waitFor();
  });

  test("the datastore page fits a phone's screen", async ({ app, apiUrl, browser, org }) => {
    const datastore = await createDatastore(app, org, { name: "On a phone" });
    const uploaded = await uploadFile(app, org, datastore.id, {
      fileName: "a-rather-long-file-name-for-a-small-screen.md",
      contentType: "text/markdown",
      content: "# Phones\n\nThe table scrolls inside its frame, not the page.\n",
    });
    await waitForSync(app, org, uploaded.body.id);
    const { page } = await signedInPage(browser, app, apiUrl, org, "member", onTestFinished, PHONE);
    await page.goto(`${apiUrl}/console/knowledge/${datastore.id}`);
    await expectStatus(page, "a-rather-long-file-name-for-a-small-screen.md", "synched");
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page);
  });
});

/** @module The fake Confluence site's content: a few spaces and pages, and the comments written to them. */

export interface FakePage {
  id: string;
  spaceId: string;
  title: string;
  version: number;
  storage: string;
  parentId?: string;
}

export interface FakeSpace {
  id: string;
  key: string;
  name: string;
  type: "global" | "personal";
  homepageId: string;
}

export interface ConfluenceSite {
  spaces: FakeSpace[];
  pages: Map<string, FakePage>;
  comments: { id: string; pageId: string; storage: string }[];
  nextId(): string;
}

export const ENG_SPACE_ID = "98305";
export const RUNBOOK_ID = "393217";
export const RUNBOOK_STORAGE =
  '<h2>Deploy</h2><p>Run the <strong>deploy</strong> script.</p><ac:structured-macro ac:name="code" ac:schema-version="1"><ac:parameter ac:name="language">bash</ac:parameter><ac:plain-text-body><![CDATA[./deploy.sh --env prod]]></ac:plain-text-body></ac:structured-macro>';

export function createSite(): ConfluenceSite {
  let last = 500_000;
  const spaces: FakeSpace[] = [
    { id: ENG_SPACE_ID, key: "ENG", name: "Engineering", type: "global", homepageId: "393216" },
    { id: "98306", key: "OPS", name: "Operations", type: "global", homepageId: "393300" },
    { id: "98307", key: "HR", name: "People", type: "global", homepageId: "393400" },
    { id: "98308", key: "MKT", name: "Marketing", type: "global", homepageId: "393500" },
    {
      id: "98309",
      key: "~5b10ac8d82e05b22cc7d4ef5",
      name: "Ada Lovelace",
      type: "personal",
      homepageId: "393600",
    },
  ];
  const pages = new Map<string, FakePage>([
    [
      "393216",
      {
        id: "393216",
        spaceId: ENG_SPACE_ID,
        title: "Engineering Home",
        version: 3,
        storage: "<p>Welcome to Engineering.</p>",
      },
    ],
    [
      RUNBOOK_ID,
      {
        id: RUNBOOK_ID,
        spaceId: ENG_SPACE_ID,
        title: "Deploy runbook",
        version: 7,
        storage: RUNBOOK_STORAGE,
        parentId: "393216",
      },
    ],
    [
      "393218",
      {
        id: "393218",
        spaceId: ENG_SPACE_ID,
        title: "Deploy checklist",
        version: 1,
        storage: "<p>Check the deploy dashboard.</p>",
      },
    ],
  ]);
  return { spaces, pages, comments: [], nextId: () => String(++last) };
}

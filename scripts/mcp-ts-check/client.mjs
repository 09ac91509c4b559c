import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

async function check(transport, label) {
  const client = new Client({ name: "ts-check", version: "1.0.0" });
  await client.connect(transport);
  const tools = await client.listTools();
  console.log(label, "tools:", tools.tools.map(t => t.name + (t.outputSchema ? "+out" : "")).join(","));
  const st = await client.callTool({ name: "memory_status", arguments: {} });
  console.log(label, "status structured rev:", st.structuredContent?.revision, "isError:", st.isError ?? false);
  const s = await client.callTool({ name: "memory_search", arguments: { query: process.argv[3] || "staging" } });
  console.log(label, "search results:", s.structuredContent?.results?.length, "isError:", s.isError ?? false);
  const r = await client.callTool({ name: "memory_recall", arguments: { prompt: "what about staging?" } });
  console.log(label, "recall tokens:", r.structuredContent?.tokens, "/", r.structuredContent?.budget);
  const res = await client.listResources();
  console.log(label, "resources:", res.resources.map(x => x.uri).join(","));
  const tmpl = await client.listResourceTemplates();
  console.log(label, "templates:", tmpl.resourceTemplates.map(x => x.uriTemplate).join(","));
  const core = await client.readResource({ uri: "memory://core" });
  console.log(label, "core bytes:", core.contents[0]?.text?.length);
  const del = await client.callTool({ name: "memory_update", arguments: { base_revision: st.structuredContent?.revision, edits: [{ op: "delete", path: "topics/core.md" }] } });
  console.log(label, "paired delete isError:", del.isError, JSON.stringify(del.content?.[0]?.text).slice(0, 80));
  await client.close();
}

const bin = process.argv[2];
const state = process.argv[4];
await check(new StdioClientTransport({ command: bin, args: ["mcp", "--state", state] }), "stdio");
if (process.argv[5]) {
  await check(new StreamableHTTPClientTransport(new URL(process.argv[5])), "http");
}

import { describe, expect, it } from "vitest";
import { bfclCase } from "./bfcl-fixtures.test-helper.ts";
import { nativeToolNames } from "./native-names.ts";

describe("native mode's function names", () => {
  it("sends BFCL's dotted names with _ and maps the calls back", () => {
    const names = nativeToolNames(bfclCase("simple_python_1").tools); // math.factorial
    expect(names.tools.map((t) => t.name)).toEqual(["math_factorial"]);
    expect(names.original("math_factorial")).toBe("math.factorial");
    expect(names.original("unknown_tool")).toBe("unknown_tool");
  });

  it("keeps two names apart that would become one", () => {
    const tool = { description: "", parameters: { type: "object" } };
    const names = nativeToolNames([{ ...tool, name: "a.b" }, { ...tool, name: "a_b" }]);
    expect(names.tools.map((t) => t.name)).toEqual(["a_b", "a_b_2"]);
    expect([names.original("a_b"), names.original("a_b_2")]).toEqual(["a.b", "a_b"]);
  });
});

// A template that will not render within its bounds (a GGUF's own Jinja template that loops or
// blows up its output) refuses with this error: the loop ends the run saying why, with nothing
// sent to the model, rather than calling it an internal error.

export class PromptRenderRefused extends Error {
  override name = "PromptRenderRefused";
}

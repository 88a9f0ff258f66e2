"""Render the lab's parity conversations with mistral-common's own encoders (a check, not product code).

mistral-common (Mistral AI's library) turns a chat request into the token ids a Mistral model was
trained on; this script decodes those ids back to text with the special tokens kept, so the lab's
prompt text can be compared with it (src/engine/templates/parity-mistral-common.test.ts).

Run it in a virtual environment outside the repository:
    python3 -m venv /tmp/mc-venv && /tmp/mc-venv/bin/pip install mistral-common
    /tmp/mc-venv/bin/python scripts/reference/mistral-common-render.py
It reads scripts/reference/mistral-common-cases.json and writes
packages/toolcall-middleware/src/families/fixtures/mistral-common-rendered.json.

Tokenizers: v3 is Mistral 7B v0.3's sentencepiece tokenizer as mistral-common ships it. For v7,
v11 and v13 (Tekken) no tokenizer file of those models is reachable here, so the Tekken vocabulary
mistral-common ships (tekken_240911.json) is loaded with its version set to v7 / v11 / v13 and the
special tokens those versions use ([ARGS], [CALL_ID], and [THINK] [/THINK] for Ministral 3
Reasoning) added: mistral-common picks its instruct encoder (InstructTokenizerV7/V11/V13) by that
version, and the text compared is the same whatever the token ids.
"""

import json
import platform
import sys
import tempfile
from pathlib import Path

import mistral_common
import sentencepiece
from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, ThinkChunk, TextChunk, ToolMessage, UserMessage
from mistral_common.protocol.instruct.request import ChatCompletionRequest
from mistral_common.protocol.instruct.tool_calls import Function, FunctionCall, Tool, ToolCall
from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy, SpecialTokens
from mistral_common.tokens.tokenizers.mistral import MistralTokenizer
from mistral_common.tokens.tokenizers.tekken import Tekkenizer

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "scripts/reference/mistral-common-cases.json"
OUT = ROOT / "packages/toolcall-middleware/src/families/fixtures/mistral-common-rendered.json"
DATA = Path(mistral_common.__file__).parent / "data"


def tekken_tokenizer(version: str, think: bool) -> MistralTokenizer:
    source = json.loads((DATA / "tekken_240911.json").read_text(encoding="utf-8"))
    source["config"]["version"] = version
    extra = [SpecialTokens.args, SpecialTokens.call_id] + ([SpecialTokens.begin_think, SpecialTokens.end_think] if think else [])
    deprecated = [dict(token) for token in Tekkenizer.DEPRECATED_SPECIAL_TOKENS]
    source["special_tokens"] = deprecated + [{"rank": len(deprecated) + i, "token_str": token.value, "is_control": True} for i, token in enumerate(extra)]
    source.pop("multimodal", None)
    source.pop("image", None)
    with tempfile.NamedTemporaryFile("w", prefix=f"tekken-{version}-", suffix=".json", delete=False, encoding="utf-8") as file:
        json.dump(source, file)
    return MistralTokenizer.from_file(file.name)


def tokenizer_for(name: str) -> MistralTokenizer:
    if name == "v3":
        return MistralTokenizer.v3()
    if name == "v13-think":
        return tekken_tokenizer("v13", True)
    return tekken_tokenizer(name, False)


def spm_text(tokenizer: MistralTokenizer, tokens: list) -> str:
    """Mistral 7B v0.3's SentencePiece ids as the text they stand for, piece by piece: the pieces'
    U+2581 as a space (the leading space SentencePiece puts before each encoded text included, as
    the model sees it) and byte pieces <0xNN> as their bytes; special tokens as their names."""
    text = tokenizer.instruct_tokenizer.tokenizer
    out, pending = [], bytearray()
    for token in tokens:
        piece = text.id_to_piece(token)
        if len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">"):
            pending.append(int(piece[3:5], 16))
            continue
        if pending:
            out.append(pending.decode("utf-8"))
            pending = bytearray()
        out.append(piece if text.is_special(token) or piece in ("<s>", "</s>") else piece.replace("\u2581", " "))
    if pending:
        out.append(pending.decode("utf-8"))
    return "".join(out)


def request_of(messages: list, system, tools: list) -> ChatCompletionRequest:
    out = [SystemMessage(content=system)] if system is not None else []
    for message in messages:
        role = message["role"]
        if role == "user":
            out.append(UserMessage(content=message["content"]))
        elif role == "tool":
            out.append(ToolMessage(content=message["content"], tool_call_id=message["toolCallId"], name=message["name"]))
        else:
            calls = [ToolCall(id=c["id"], function=FunctionCall(name=c["name"], arguments=json.dumps(c["arguments"]))) for c in message.get("toolCalls", [])]
            content = message.get("content") or None
            if message.get("reasoning"):
                content = [ThinkChunk(thinking=message["reasoning"])] + ([TextChunk(text=content)] if content else [])
            out.append(AssistantMessage(content=content, tool_calls=calls or None))
    uses_tools = any(m.get("toolCalls") for m in messages)
    return ChatCompletionRequest(messages=out, tools=[Tool(function=Function(**t)) for t in tools] if uses_tools else None)


def main() -> None:
    spec = json.loads(CASES.read_text(encoding="utf-8"))
    rendered = []
    for case in spec["cases"]:
        tokenizer = tokenizer_for(case["tokenizer"])
        for name in case["conversations"]:
            for system in spec["systems"]:
                messages = spec["conversations"][name]
                entry = {"tokenizer": case["tokenizer"], "model": case["model"], "conversation": name, "system": system}
                try:
                    tokens = tokenizer.encode_chat_completion(request_of(messages, system, spec["tools"])).tokens
                    entry["text"] = spm_text(tokenizer, tokens) if case["tokenizer"] == "v3" else tokenizer.decode(tokens, special_token_policy=SpecialTokenPolicy.KEEP)
                except Exception as error:  # the encoder refuses some conversations: record why
                    entry["refused"] = f"{type(error).__name__}: {error}"
                rendered.append(entry)
    out = {
        "about": "mistral-common's rendering of scripts/reference/mistral-common-cases.json (written by scripts/reference/mistral-common-render.py; do not edit by hand)",
        "mistral_common": mistral_common.__version__,
        "python": platform.python_version(),
        "sentencepiece": sentencepiece.__version__,
        "tekken_vocabulary": "tekken_240911.json (shipped with mistral-common), version and special tokens set per case",
        "v3_text": "Mistral 7B v0.3's SentencePiece pieces written as text: U+2581 as a space, <0xNN> byte pieces as their bytes",
        "rendered": rendered,
    }
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(rendered)} renderings, mistral-common {mistral_common.__version__} -> {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()

"""Unpack the Kubernetes JSON schemas of a kubernetes-validate wheel for kubeconform.

    python3 scripts/infra/k8s-schemas.py <kubernetes_validate-*.whl> <out dir>

The wheel carries, per Kubernetes version, one schema per kind (`deployment-apps-v1.json`) that
refers to a shared `_definitions.json` by an absolute path on kubernetes.io. kubeconform would try
to download that, so each schema loses its `$id` and refers to the file beside it instead. Only the
strict variants (no property a kind does not declare) are unpacked, as `<out>/v1.33.0-local-strict/`,
the layout kubeconform's `-schema-location` template names with
`{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`.
Run by ./scripts/stack setup (ensure_deploy_tools).
"""
import json
import os
import sys
import zipfile

PREFIX = "kubernetes_validate/kubernetes-json-schema/"
REMOTE_DEFINITIONS = '"/api/_definitions.json#'


def refs(node):
    """Every `$ref` string in a schema (a property may itself be named `$ref`: its value is an object)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def main(wheel: str, out: str) -> None:
    count = 0
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if not name.startswith(PREFIX) or not name.endswith(".json"):
                continue
            version_dir, file = name[len(PREFIX):].split("/", 1)
            if not version_dir.endswith("-local-strict"):
                continue
            schema = json.loads(z.read(name))
            schema.pop("$id", None)
            text = json.dumps(schema).replace(REMOTE_DEFINITIONS, '"_definitions.json#')
            remote = [r for r in refs(json.loads(text)) if not r.startswith(("#", "_definitions.json#"))]
            if remote:
                sys.exit(f"{name} refers to schemas elsewhere, which kubeconform would download: {remote[:3]}")
            os.makedirs(os.path.join(out, version_dir), exist_ok=True)
            with open(os.path.join(out, version_dir, file), "w") as f:
                f.write(text)
            count += 1
    if count == 0:
        sys.exit(f"{wheel} holds no {PREFIX}*-local-strict schemas")
    print(f"k8s-schemas: {count} schemas in {out}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

/// heic2jpg's version: printed by `--version` and recorded in every provenance mark.
package enum Version {
    package static let current = "0.1.0"
}

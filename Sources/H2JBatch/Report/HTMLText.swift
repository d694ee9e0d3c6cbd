import H2JMetadata

/// HTML built up as text, every piece of data escaped.
package struct HTMLText {
    package init() {}

    package private(set) var markup = ""

    package mutating func raw(_ more: String) { markup += more }

    package mutating func text(_ string: String) { markup += Self.escaped(string) }

    package mutating func element(_ name: String, _ content: String, class className: String? = nil) {
        markup += "<\(name)" + (className.map { " class=\"\($0)\"" } ?? "") + ">" + Self.escaped(content) + "</\(name)>"
    }

    package mutating func row(_ cells: [String]) {
        markup += "<tr>" + cells.map { "<td>" + Self.escaped($0) + "</td>" }.joined() + "</tr>"
    }

    /// `string` as HTML text or a double-quoted attribute: XML's escaping (`XMPSerializer`),
    /// which HTML reads the same.
    package static func escaped(_ string: String) -> String {
        String(decoding: XMPSerializer.escaped(string, attribute: true, asciiOnly: false), as: UTF8.self)
    }
}

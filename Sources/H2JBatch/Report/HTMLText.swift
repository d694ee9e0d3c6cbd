import H2JMetadata

/// HTML built up as text, every piece of data escaped.
package struct HTMLText {
    package init() {}

    package private(set) var markup = ""

    /// A page's start, up to its `<body>`: UTF-8, the Content-Security-Policy `policy`,
    /// the generator line `PageFile` knows earlier pages by, `title` and `style`.
    package static func head(title: String, policy: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(policy)">
        \(PageFile.generator)
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title))</title>
        <style>\(style)</style></head><body>

        """
    }

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

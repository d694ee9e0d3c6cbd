/// One XMP property to add to a packet: its namespace, local name and value.
///
/// Used for what the EXIF fitter moves out of an oversized EXIF (UserComment →
/// `exif:UserComment`, ImageDescription → `dc:description`, …) and for the provenance
/// mark (`h2j:`). `XMPForJPEG` serializes them; values are plain Unicode text and are
/// XML-escaped there, never here.
package struct XMPProperty: Sendable, Equatable {
    /// How the value is structured in RDF.
    package enum Value: Sendable, Equatable {
        /// A simple text value.
        case text(String)
        /// An `rdf:Alt` with one `xml:lang="x-default"` item (dc:description, exif:UserComment, dc:rights).
        case languageAlternative(String)
        /// An `rdf:Seq` of text items (dc:creator).
        case orderedArray([String])
        /// An `rdf:Seq` of `rdf:li rdf:parseType="Resource"`, each holding one empty
        /// element `item` whose attributes are the text properties given (Ultra HDR's
        /// `Container:Directory` of `Container:Item`s).
        case resourceSequence(item: XMPProperty.Name, [[XMPProperty]])
    }

    /// A qualified element name, for `resourceSequence`.
    package struct Name: Sendable, Equatable {
        package let namespace: XMPNamespace
        package let name: String

        package init(_ namespace: XMPNamespace, _ name: String) {
            self.namespace = namespace
            self.name = name
        }
    }

    package let namespace: XMPNamespace
    /// Local name, e.g. `UserComment`.
    package let name: String
    package let value: Value

    package init(_ namespace: XMPNamespace, _ name: String, _ value: Value) {
        self.namespace = namespace
        self.name = name
        self.value = value
    }

    /// `prefix:name`, e.g. `exif:UserComment`.
    package var qualifiedName: String { "\(namespace.prefix):\(name)" }

    /// Every namespace the serialized property uses: its own, and those of a resource
    /// sequence's items and their attributes.
    package var namespaces: [XMPNamespace] {
        guard case .resourceSequence(let item, let entries) = value else { return [namespace] }
        return [namespace, item.namespace] + entries.flatMap { $0.map(\.namespace) }
    }
}

/// An XML namespace with the prefix this project writes it under.
package struct XMPNamespace: Sendable, Equatable, Hashable {
    package let prefix: String
    package let uri: String

    package init(prefix: String, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }

    package static let exif = XMPNamespace(prefix: "exif", uri: "http://ns.adobe.com/exif/1.0/")
    package static let tiff = XMPNamespace(prefix: "tiff", uri: "http://ns.adobe.com/tiff/1.0/")
    package static let dc = XMPNamespace(prefix: "dc", uri: "http://purl.org/dc/elements/1.1/")
    /// XMP Part 3: `xmpNote:HasExtendedXMP` lives here.
    package static let xmpNote = XMPNamespace(prefix: "xmpNote", uri: "http://ns.adobe.com/xmp/note/")
    /// heic2jpg's provenance mark (see `ProvenanceMark`).
    package static let h2j = XMPNamespace(prefix: "h2j", uri: "http://ns.heic2jpg.dev/provenance/1.0/")
    /// Adobe's gain map (Ultra HDR), and Google's container that locates it.
    package static let hdrgm = XMPNamespace(prefix: "hdrgm", uri: "http://ns.adobe.com/hdr-gain-map/1.0/")
    package static let container = XMPNamespace(prefix: "Container", uri: "http://ns.google.com/photos/1.0/container/")
    package static let containerItem = XMPNamespace(prefix: "Item", uri: "http://ns.google.com/photos/1.0/container/item/")
    /// Added properties of these namespaces never move to Extended XMP.
    static let neverExtended: Set<XMPNamespace> = [.h2j, .hdrgm, .container]
}

import H2JJob
extension OutputBox {
    /// The size `width`×`height` takes inside this box, aspect ratio kept (the side that
    /// binds is the box's, the other rounded to nearest, at least 1); nil when it already
    /// lies inside, since nothing is ever enlarged.
    func fitting(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard width > self.width || height > self.height, width > 0, height > 0 else { return nil }
        // The width binds when box.width / width ≤ box.height / height.
        if self.width * height <= self.height * width {
            return (self.width, max(1, Int((Double(height) * Double(self.width) / Double(width)).rounded())))
        }
        return (max(1, Int((Double(width) * Double(self.height) / Double(height)).rounded())), self.height)
    }
}

// GoLightly editor: import of the original GoLightly bitmap models.
//
// A model is a 24/32-bit image, one pixel per simulation cell: red > 128 marks a source
// pixel, green gives the permittivity eps = eps_max * G / 255, blue is a monitor id
// (0 = none). The import makes one material and one raster layer per distinct green
// value (the most frequent value becomes the domain background instead), one region
// source covering every source pixel and one time monitor (region, sum of squares) per
// monitor id. Green = 0 (eps 0 is not physical) is read as vacuum (eps 1).
#pragma once

#include <QImage>

#include <string>

#include "golightly/project.hpp"

namespace golightly::editor {

struct BitmapImportOptions {
    double epsMax = 12.11;  ///< permittivity at green = 255
    double widthUm = 10;    ///< physical width of the image; height follows the aspect ratio
    std::string name = "bitmap model";
};

/// Builds a project from a bitmap model. Throws std::invalid_argument for an empty image
/// or non-positive eps_max / width.
Project import_bitmap_model(const QImage& image, const BitmapImportOptions& options);

/// A raster shape (8-bit grey PNG, row 0 = top) from a coverage mask, origin (0, 0).
Shape raster_from_mask(const std::vector<std::uint8_t>& mask, int width, int height, double pixelSizeUm);

}  // namespace golightly::editor

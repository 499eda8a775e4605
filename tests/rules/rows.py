"""All test rows, one list."""

from tests.rules import (
    rows_elementwise,
    rows_fft,
    rows_index_tricks,
    rows_integrate,
    rows_linalg,
    rows_products,
    rows_reductions,
    rows_scipy_linalg,
    rows_shape,
    rows_special,
    rows_stats,
    rows_value_carrying,
    rows_windows,
)

ROWS = (rows_elementwise.ROWS + rows_shape.ROWS + rows_reductions.ROWS + rows_products.ROWS
        + rows_linalg.ROWS + rows_fft.ROWS + rows_special.ROWS
        + rows_stats.ROWS + rows_value_carrying.ROWS + rows_scipy_linalg.ROWS
        + rows_integrate.ROWS + rows_index_tricks.ROWS + rows_windows.ROWS)

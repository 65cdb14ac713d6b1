// XGBoost's C API, opened when husk first trains a model or asks XGBoost
// itself for a prediction (the tests' twin of the tree walk): extraction
// walks the trees in extract/model.cc and never needs the library, whose
// loading and static registries cost every start of husk about 3 ms of CPU
// (base/shared_library.h).
#pragma once

#include <xgboost/c_api.h>

#include <string>

#include "base/shared_library.h"
#include "husk/status.h"

namespace husk {

struct XGBoostLibrary {
  SharedLibrary library{"libxgboost.so.0"};
  decltype(&XGBGetLastError) get_last_error = HUSK_LIBRARY_SYMBOL(library, XGBGetLastError);
  decltype(&XGBSetGlobalConfig) set_global_config = HUSK_LIBRARY_SYMBOL(library, XGBSetGlobalConfig);
  decltype(&XGDMatrixCreateFromMat) dmatrix_create_from_mat = HUSK_LIBRARY_SYMBOL(library, XGDMatrixCreateFromMat);
  decltype(&XGDMatrixSetFloatInfo) dmatrix_set_float_info = HUSK_LIBRARY_SYMBOL(library, XGDMatrixSetFloatInfo);
  decltype(&XGDMatrixFree) dmatrix_free = HUSK_LIBRARY_SYMBOL(library, XGDMatrixFree);
  decltype(&XGBoosterCreate) booster_create = HUSK_LIBRARY_SYMBOL(library, XGBoosterCreate);
  decltype(&XGBoosterFree) booster_free = HUSK_LIBRARY_SYMBOL(library, XGBoosterFree);
  decltype(&XGBoosterSetParam) booster_set_param = HUSK_LIBRARY_SYMBOL(library, XGBoosterSetParam);
  decltype(&XGBoosterUpdateOneIter) booster_update_one_iter = HUSK_LIBRARY_SYMBOL(library, XGBoosterUpdateOneIter);
  decltype(&XGBoosterSetStrFeatureInfo) booster_set_str_feature_info = HUSK_LIBRARY_SYMBOL(library, XGBoosterSetStrFeatureInfo);
  decltype(&XGBoosterSetAttr) booster_set_attr = HUSK_LIBRARY_SYMBOL(library, XGBoosterSetAttr);
  decltype(&XGBoosterSaveModelToBuffer) booster_save_model_to_buffer = HUSK_LIBRARY_SYMBOL(library, XGBoosterSaveModelToBuffer);
  decltype(&XGBoosterLoadModelFromBuffer) booster_load_model_from_buffer = HUSK_LIBRARY_SYMBOL(library, XGBoosterLoadModelFromBuffer);
  decltype(&XGBoosterPredictFromDMatrix) booster_predict_from_dmatrix = HUSK_LIBRARY_SYMBOL(library, XGBoosterPredictFromDMatrix);
  decltype(&XGBoosterPredictFromDense) booster_predict_from_dense = HUSK_LIBRARY_SYMBOL(library, XGBoosterPredictFromDense);
};

// The library, opened once and told to log nothing (XGBoost writes to
// stderr by default; a library call says nothing). xgboost_loaded() first:
// it says why the library cannot be used.
const XGBoostLibrary& xgboost();
Status xgboost_loaded();

// `what` failed: XGBoost's own last error beside it.
Status xgboost_error(const std::string& what);

}  // namespace husk
